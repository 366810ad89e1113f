// cp.reduce.async.bulk ground truth (issue 18): every .redOp/.type pair the PTX ISA lists for the
// shared::cta -> global form reduces 512 bytes of shared memory into 512 bytes of global memory;
// the probe prints the global bytes afterwards. The operands are made of patterns that exercise
// the rules: for floating types every pairing of (normal, subnormal, +-0, +-inf, NaN, tiny,
// huge, random bits); for integers wrap-around, signed limits and the small values inc/dec
// wrap at. Then cp.reduce.async.bulk.tensor (tile mode, 2-D) cases, one per process.
// Usage: reduce_probe bulk            all bulk cases, one launch each
//        reduce_probe tensor N        tensor case N
//        reduce_probe ncu             the launches profiled for counters
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kBytes = 512;

#define BULK_KERNEL(name, suffix)                                                                     \
  __global__ void name(unsigned char* g, const unsigned char* src, int off, int n) {                 \
    __shared__ __align__(128) unsigned char s[kBytes];                                               \
    for (int i = threadIdx.x; i < kBytes; i += blockDim.x) s[i] = src[i];                            \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                     \
    __syncthreads();                                                                                  \
    if (threadIdx.x == 0) {                                                                           \
      unsigned sa = (unsigned)__cvta_generic_to_shared(s);                                           \
      asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." suffix " [%0], [%1], %2;"   \
                   ::"l"(g + off), "r"(sa), "r"(n) : "memory");                                      \
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");                                      \
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                                      \
    }                                                                                                 \
  }

BULK_KERNEL(k_add_u32, "add.u32")
BULK_KERNEL(k_add_s32, "add.s32")
BULK_KERNEL(k_add_u64, "add.u64")
BULK_KERNEL(k_add_f32, "add.f32")
BULK_KERNEL(k_add_f64, "add.f64")
BULK_KERNEL(k_add_f16, "add.noftz.f16")
BULK_KERNEL(k_add_bf16, "add.noftz.bf16")
BULK_KERNEL(k_min_u32, "min.u32")
BULK_KERNEL(k_min_s32, "min.s32")
BULK_KERNEL(k_min_u64, "min.u64")
BULK_KERNEL(k_min_s64, "min.s64")
BULK_KERNEL(k_min_f16, "min.f16")
BULK_KERNEL(k_min_bf16, "min.bf16")
BULK_KERNEL(k_max_u32, "max.u32")
BULK_KERNEL(k_max_s32, "max.s32")
BULK_KERNEL(k_max_u64, "max.u64")
BULK_KERNEL(k_max_s64, "max.s64")
BULK_KERNEL(k_max_f16, "max.f16")
BULK_KERNEL(k_max_bf16, "max.bf16")
BULK_KERNEL(k_inc_u32, "inc.u32")
BULK_KERNEL(k_dec_u32, "dec.u32")
BULK_KERNEL(k_and_b32, "and.b32")
BULK_KERNEL(k_and_b64, "and.b64")
BULK_KERNEL(k_or_b32, "or.b32")
BULK_KERNEL(k_or_b64, "or.b64")
BULK_KERNEL(k_xor_b32, "xor.b32")
BULK_KERNEL(k_xor_b64, "xor.b64")

typedef void (*BulkFn)(unsigned char*, const unsigned char*, int, int);
// kind: 'u' unsigned/bits, 's' signed, 'f' float; es: element bytes; h: 'h' f16, 'b' bf16.
struct Bulk { const char* name; BulkFn fn; char kind; int es; char h; };
static const Bulk kBulk[] = {
  {"add.u32", k_add_u32, 'u', 4, 0}, {"add.s32", k_add_s32, 's', 4, 0}, {"add.u64", k_add_u64, 'u', 8, 0},
  {"add.f32", k_add_f32, 'f', 4, 0}, {"add.f64", k_add_f64, 'f', 8, 0}, {"add.noftz.f16", k_add_f16, 'f', 2, 'h'},
  {"add.noftz.bf16", k_add_bf16, 'f', 2, 'b'}, {"min.u32", k_min_u32, 'u', 4, 0}, {"min.s32", k_min_s32, 's', 4, 0},
  {"min.u64", k_min_u64, 'u', 8, 0}, {"min.s64", k_min_s64, 's', 8, 0}, {"min.f16", k_min_f16, 'f', 2, 'h'},
  {"min.bf16", k_min_bf16, 'f', 2, 'b'}, {"max.u32", k_max_u32, 'u', 4, 0}, {"max.s32", k_max_s32, 's', 4, 0},
  {"max.u64", k_max_u64, 'u', 8, 0}, {"max.s64", k_max_s64, 's', 8, 0}, {"max.f16", k_max_f16, 'f', 2, 'h'},
  {"max.bf16", k_max_bf16, 'f', 2, 'b'}, {"inc.u32", k_inc_u32, 'u', 4, 0}, {"dec.u32", k_dec_u32, 'u', 4, 0},
  {"and.b32", k_and_b32, 'u', 4, 0}, {"and.b64", k_and_b64, 'u', 8, 0}, {"or.b32", k_or_b32, 'u', 4, 0},
  {"or.b64", k_or_b64, 'u', 8, 0}, {"xor.b32", k_xor_b32, 'u', 4, 0}, {"xor.b64", k_xor_b64, 'u', 8, 0},
};

static unsigned long long g_lcg = 12345;
static unsigned long long rnd() {
  g_lcg = g_lcg * 6364136223846793005ull + 1442695040888963407ull;
  return g_lcg >> 11;
}

// Element i of one operand; cat selects the pattern class (0..7).
static unsigned long long element(char kind, int es, char h, int cat) {
  const unsigned long long r = rnd();
  if (kind != 'f') {
    const unsigned long long mask = es == 8 ? ~0ull : (1ull << (es * 8)) - 1;
    const unsigned long long top = 1ull << (es * 8 - 1);
    switch (cat) {
      case 0: return r & 7;                 // small: inc/dec wrap, adds without carry
      case 1: return 0;
      case 2: return mask;                  // all ones (-1)
      case 3: return top;                   // the most negative signed value
      case 4: return top - 1;               // the largest signed value
      case 5: return (r & 7) + 1;
      default: return (r ^ (r << 29)) & mask;
    }
  }
  // Floating point: bit patterns by class.
  int mant = es == 8 ? 52 : es == 4 ? 23 : h == 'h' ? 10 : 7;
  int expb = es * 8 - 1 - mant;
  const unsigned long long sign = (r >> 40) & 1 ? 1ull << (es * 8 - 1) : 0;
  const unsigned long long mmask = (1ull << mant) - 1, emax = (1ull << expb) - 1, bias = emax >> 1;
  const unsigned long long m = (r ^ (r >> 17) ^ (r << 13)) & mmask;
  switch (cat) {
    case 0: return sign | ((bias - 3 + (r >> 50) % 7) << mant) | m;     // normal around 1
    case 1: return sign | (m ? m : 1);                                    // subnormal
    case 2: return sign;                                                  // +-0
    case 3: return sign | (emax << mant);                                 // +-inf
    case 4: return sign | (emax << mant) | (((r >> 45) & 1) ? (1ull << (mant - 1)) | (m & 0xf) : (m | 1) & ~(1ull << (mant - 1)));  // NaN (quiet or signalling)
    case 5: return sign | (1ull << mant) | m;                             // smallest normals
    case 6: return sign | ((emax - 1) << mant) | m;                       // the largest binade
    default: return r & ((es == 8 ? ~0ull : (1ull << (es * 8)) - 1));    // any bits
  }
}

static void fill(const Bulk& b, std::vector<unsigned char>& dst, std::vector<unsigned char>& src) {
  const int n = kBytes / b.es;
  for (int i = 0; i < n; ++i) {
    unsigned long long d = element(b.kind, b.es, b.h, i % 8), s = element(b.kind, b.es, b.h, (i / 8) % 8);
    std::memcpy(&dst[i * b.es], &d, b.es);
    std::memcpy(&src[i * b.es], &s, b.es);
  }
}

static void dump(const std::vector<unsigned char>& v) {
  for (size_t i = 0; i < v.size(); i += 4) {
    unsigned w;
    std::memcpy(&w, &v[i], 4);
    printf("%08x%c", w, (i / 4) % 16 == 15 ? '\n' : ' ');
  }
}

static int run_bulk(const Bulk& b, int off, int n, bool print) {
  unsigned char *g, *s;
  cudaMalloc(&g, 4096);
  cudaMalloc(&s, kBytes);
  std::vector<unsigned char> dst(kBytes), src(kBytes);
  fill(b, dst, src);
  cudaMemset(g, 0, 4096);
  cudaMemcpy(g + off, dst.data(), kBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(s, src.data(), kBytes, cudaMemcpyHostToDevice);
  b.fn<<<1, 128>>>(g, s, off, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<unsigned char> out(kBytes);
  cudaMemcpy(out.data(), g + off, kBytes, cudaMemcpyDeviceToHost);
  if (print) {
    printf("bulk %s run %d\n", b.name, (int)e);
    dump(out);
  }
  cudaFree(g);
  cudaFree(s);
  return e;
}

// --- cp.reduce.async.bulk.tensor, tile mode ---------------------------------------------------
#define TENSOR_KERNEL(name, op)                                                                        \
  __global__ void name(const __grid_constant__ CUtensorMap m, const unsigned* src, int x, int y) {   \
    __shared__ __align__(1024) unsigned s[2048];                                                       \
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = src[i];                               \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                       \
    __syncthreads();                                                                                    \
    if (threadIdx.x == 0) {                                                                             \
      unsigned sa = (unsigned)__cvta_generic_to_shared(s);                                             \
      asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." op ".tile.bulk_group [%0, {%1, %2}], [%3];" \
                   ::"l"(&m), "r"(x), "r"(y), "r"(sa) : "memory");                                     \
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");                                        \
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                                        \
    }                                                                                                   \
  }
TENSOR_KERNEL(t_add, "add")
TENSOR_KERNEL(t_min, "min")
TENSOR_KERNEL(t_max, "max")
TENSOR_KERNEL(t_inc, "inc")
TENSOR_KERNEL(t_dec, "dec")
TENSOR_KERNEL(t_and, "and")
TENSOR_KERNEL(t_or, "or")
TENSOR_KERNEL(t_xor, "xor")
typedef void (*TensorFn)(const CUtensorMap, const unsigned*, int, int);

// ty: CUtensorMapDataType; sw: swizzle; dims {d0, d1}, box {b0, b1}, start {x, y}.
struct Tensor { const char* op; TensorFn fn; int ty; int sw; int d[2]; int b[2]; int c[2]; };
static const Tensor kTensor[] = {
  {"add", t_add, 7, 0, {64, 24}, {32, 8}, {0, 0}},      // 0 f32 add, in bounds
  {"add", t_add, 7, 0, {64, 24}, {32, 8}, {48, 20}},    // 1 f32 add, partly out of bounds
  {"add", t_add, 7, 3, {64, 24}, {32, 8}, {8, 4}},      // 2 f32 add, 128B swizzle
  {"add", t_add, 2, 0, {64, 24}, {32, 8}, {-8, -2}},    // 3 u32 add, negative start
  {"min", t_min, 3, 0, {64, 24}, {32, 8}, {4, 1}},      // 4 s32 min
  {"max", t_max, 2, 0, {64, 24}, {32, 8}, {4, 1}},      // 5 u32 max
  {"inc", t_inc, 2, 0, {64, 24}, {32, 8}, {4, 1}},      // 6 u32 inc
  {"dec", t_dec, 2, 0, {64, 24}, {32, 8}, {4, 1}},      // 7 u32 dec
  {"and", t_and, 2, 0, {64, 24}, {32, 8}, {4, 1}},      // 8 and (UINT32)
  {"or", t_or, 2, 0, {64, 24}, {32, 8}, {4, 1}},        // 9 or
  {"xor", t_xor, 2, 0, {64, 24}, {32, 8}, {4, 1}},      // 10 xor
  {"add", t_add, 6, 0, {128, 24}, {64, 8}, {8, 1}},     // 11 f16 add
  {"add", t_add, 9, 0, {128, 24}, {64, 8}, {8, 1}},     // 12 bf16 add
  {"max", t_max, 6, 0, {128, 24}, {64, 8}, {8, 1}},     // 13 f16 max
  {"add", t_add, 4, 0, {32, 24}, {16, 8}, {2, 1}},      // 14 u64 add
  {"add", t_add, 8, 0, {32, 24}, {16, 8}, {2, 1}},      // 15 f64 add
  {"min", t_min, 5, 0, {32, 24}, {16, 8}, {2, 1}},      // 16 s64 min
  {"add", t_add, 3, 0, {64, 24}, {32, 8}, {4, 1}},      // 17 s32 add
  {"add", t_add, 10, 0, {64, 24}, {32, 8}, {4, 1}},     // 18 f32 FTZ add
  {"add", t_add, 0, 0, {256, 24}, {128, 8}, {16, 1}},   // 19 u8 add
  {"max", t_max, 7, 0, {64, 24}, {32, 8}, {4, 1}},      // 20 f32 max
  {"add", t_add, 11, 0, {64, 24}, {32, 8}, {4, 1}},     // 21 tf32 add
};

static int run_tensor(int id) {
  const Tensor& t = kTensor[id];
  static const int kEs[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  static const char kKind[] = {'u', 'u', 'u', 's', 'u', 's', 'f', 'f', 'f', 'f', 'f', 'f', 'f'};
  const int es = kEs[t.ty];
  const Bulk fake = {t.op, nullptr, kKind[t.ty], es, t.ty == 6 ? 'h' : t.ty == 9 ? 'b' : (char)0};
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess || !f) {
    printf("no entry point\n");
    return 1;
  }
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
  const size_t total = (size_t)t.d[0] * t.d[1] * es;
  std::vector<unsigned char> dst(total), src(8192), chunk(kBytes), chunk2(kBytes);
  for (size_t k = 0; k < total; k += kBytes) {
    fill(fake, chunk, chunk2);
    std::memcpy(&dst[k], chunk.data(), std::min<size_t>(kBytes, total - k));
  }
  for (size_t k = 0; k < src.size(); k += kBytes) {
    fill(fake, chunk, chunk2);
    std::memcpy(&src[k], chunk2.data(), kBytes);
  }
  unsigned char *g, *s;
  cudaMalloc(&g, total);
  cudaMalloc(&s, src.size());
  cudaMemcpy(g, dst.data(), total, cudaMemcpyHostToDevice);
  cudaMemcpy(s, src.data(), src.size(), cudaMemcpyHostToDevice);
  cuuint64_t dims[2] = {(cuuint64_t)t.d[0], (cuuint64_t)t.d[1]}, str[1] = {(cuuint64_t)t.d[0] * es};
  cuuint32_t box[2] = {(cuuint32_t)t.b[0], (cuuint32_t)t.b[1]}, est[2] = {1, 1};
  CUtensorMap m;
  CUresult e = encode(&m, (CUtensorMapDataType)t.ty, 2, g, dims, str, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      (CUtensorMapSwizzle)t.sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("tensor %d %s type %d encode %d\n", id, t.op, t.ty, (int)e);
  if (e) return 0;
  t.fn<<<1, 128>>>(m, (const unsigned*)s, t.c[0], t.c[1]);
  cudaError_t r = cudaDeviceSynchronize();
  printf("tensor %d run %d\n", id, (int)r);
  if (r) return 2;
  std::vector<unsigned char> out(total);
  cudaMemcpy(out.data(), g, total, cudaMemcpyDeviceToHost);
  dump(out);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && !strcmp(argv[1], "bulk")) {
    for (const Bulk& b : kBulk) run_bulk(b, 0, kBytes, true);
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "tensor")) return run_tensor(atoi(argv[2]));
  if (argc >= 2 && !strcmp(argv[1], "ncu")) {
    // 1: 512 bytes at offset 0; 2: 48 bytes at offset 16; 3: 496 bytes at offset 80 (f32 add).
    run_bulk(kBulk[0], 0, 512, false);
    run_bulk(kBulk[0], 16, 48, false);
    run_bulk(kBulk[3], 80, 496, false);
    run_bulk(kBulk[4], 0, 512, false);
    return 0;
  }
  printf("usage: reduce_probe bulk | tensor N | ncu\n");
  return 1;
}
