// The video instructions through inline PTX: each thread reads a, b, c and writes one result per
// form (tests/exec/video_ref.hpp lists the same forms with the PTX ISA's semantics; keep the two
// in the same order). tests/hw/ptx/video.cu runs this kernel on a GPU.
#define VIDEO_FORMS(X)                                                   \
  X(0, "vadd.s32.u32.s32.sat %0, %1.b0, %2.h0;")                         \
  X(1, "vsub.s32.s32.u32.sat %0, %1.h1, %2.h1;")                         \
  X(2, "vabsdiff.s32.s32.s32.sat %0.h0, %1.b0, %2.b2, %3;")              \
  X(3, "vmin.s32.s32.s32.sat.add %0, %1, %2, %3;")                       \
  X(4, "vmax.u32.u32.u32.max %0, %1.b3, %2.b1, %3;")                     \
  X(5, "vadd.u32.u32.u32.sat %0.b2, %1.h0, %2.h1, %3;")                  \
  X(6, "vshl.s32.u32.u32.clamp %0, %1, %2.b0;")                          \
  X(7, "vshr.u32.u32.u32.wrap %0, %1, %2.h1;")                           \
  X(8, "vshr.s32.s32.u32.clamp.add %0, %1.h1, %2.b0, %3;")               \
  X(9, "vmad.s32.s32.s32.sat %0, %1, %2, -%3;")                          \
  X(10, "vmad.s32.s32.s32.shr15 %0, %1.h0, %2.h0, %3;")                  \
  X(11, "vmad.s32.s32.s32.po.shr7 %0, %1.b1, %2.h0, %3;")                \
  X(12, "vmad.s32.s32.s32 %0, -%1.h0, %2.h1, %3;")                       \
  X(13, "vset.s32.u32.lt %0, %1, %2;")                                   \
  X(14, "vset.u32.u32.ne.add %0, %1, %2.h1, %3;")                        \
  X(15, "vset.s32.s32.ge %0.b1, %1.b3, %2.b0, %3;")                      \
  X(16, "vadd2.s32.s32.u32.sat %0, %1, %2, %3;")                         \
  X(17, "vsub2.s32.s32.s32.sat %0.h0, %1.h10, %2.h32, %3;")              \
  X(18, "vmin2.s32.u32.u32.add %0.h10, %1.h00, %2.h22, %3;")             \
  X(19, "vavrg2.u32.u32.u32 %0, %1.h21, %2.h03, %3;")                    \
  X(20, "vabsdiff2.s32.s32.s32.add %0.h1, %1, %2, %3;")                  \
  X(21, "vmax2.u32.s32.s32.sat %0, %1, %2, %3;")                         \
  X(22, "vset2.s32.u32.lt %0, %1, %2, %3;")                              \
  X(23, "vset2.u32.u32.ne.add %0, %1, %2, %3;")                          \
  X(24, "vadd4.s32.s32.s32.sat %0, %1, %2, %3;")                         \
  X(25, "vsub4.u32.u32.u32.sat %0.b20, %1.b7531, %2.b6420, %3;")         \
  X(26, "vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;")                     \
  X(27, "vavrg4.s32.s32.s32 %0.b310, %1, %2, %3;")                       \
  X(28, "vmin4.s32.s32.u32 %0, %1.b0123, %2.b4455, %3;")                 \
  X(29, "vmax4.s32.u32.s32.sat %0.b3, %1, %2, %3;")                      \
  X(30, "vset4.s32.s32.gt %0, %1, %2, %3;")                              \
  X(31, "vset4.u32.u32.le.add %0.b21, %1, %2, %3;")

constexpr int kVideoForms = 32;

extern "C" __global__ void video(const unsigned* in, unsigned* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  unsigned* o = out + kVideoForms * t;
  unsigned d;
#define VIDEO_RUN(k, text)                                         \
  asm volatile(text : "=r"(d) : "r"(a), "r"(b), "r"(c));            \
  o[k] = d;
  VIDEO_FORMS(VIDEO_RUN)
#undef VIDEO_RUN
}

// brkpt: thread 5 reaches a breakpoint (warpscope stops the launch there, as no debugger is attached).
extern "C" __global__ void breakpoint(int* out) {
  if (threadIdx.x == 5) asm volatile("brkpt;");
  out[threadIdx.x] = 1;
}
