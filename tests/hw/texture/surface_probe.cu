// H100 ground truth for surfaces (issue 17): surf2Dread/surf2Dwrite/surf1D/surf3D with each
// boundary mode, in and out of range (x is in bytes), on a 2-D uint array and a uchar4 array. An x that is not a multiple of the
// element size ends the launch with cudaErrorMisalignedAddress.
//   surface_probe          the sweep;  surface_probe X Y  one trapping read;  surface_probe X  one u8x4 read
// Prints the error each launch ends with, then the array's contents after the writes.
//   surface_probe > surface_results.csv
#include <cstdio>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err,%s,%s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void rd(cudaSurfaceObject_t s, const int2* c, unsigned* out, int n, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = 0xdeadbeef;
  if (mode == 0) v = surf2Dread<unsigned>(s, c[i].x, c[i].y, cudaBoundaryModeZero);
  else v = surf2Dread<unsigned>(s, c[i].x, c[i].y, cudaBoundaryModeClamp);
  out[i] = v;
}
__global__ void wr(cudaSurfaceObject_t s, const int2* c, int n, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = 0x1000u + i;
  if (mode == 0) surf2Dwrite(v, s, c[i].x, c[i].y, cudaBoundaryModeZero);
  else surf2Dwrite(v, s, c[i].x, c[i].y, cudaBoundaryModeClamp);
}
__global__ void rd_trap(cudaSurfaceObject_t s, int x, int y, unsigned* out) {
  out[0] = surf2Dread<unsigned>(s, x, y, cudaBoundaryModeTrap);
}
__global__ void rd_u8x4(cudaSurfaceObject_t s, const int2* c, uchar4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<uchar4>(s, c[i].x, c[i].y, cudaBoundaryModeClamp);
}

int main(int argc, char** argv) {
  const int W = 6, H = 4;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<unsigned>();
  cudaArray_t a; CK(cudaMallocArray(&a, &d, W, H, cudaArraySurfaceLoadStore));
  std::vector<unsigned> h(W * H);
  for (int i = 0; i < W * H; i++) h[i] = 0xa000u + i;
  CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd_; memset(&rd_, 0, sizeof rd_); rd_.resType = cudaResourceTypeArray; rd_.res.array.array = a;
  cudaSurfaceObject_t s; CK(cudaCreateSurfaceObject(&s, &rd_));
  if (argc > 2) {  // one trapping read at (x bytes, y): prints the launch's error
    unsigned* o; CK(cudaMalloc(&o, 4));
    int x = atoi(argv[1]), y = atoi(argv[2]);
    rd_trap<<<1, 1>>>(s, x, y, o);
    cudaError_t e = cudaDeviceSynchronize();
    unsigned v = 0; cudaMemcpy(&v, o, 4, cudaMemcpyDeviceToHost);
    printf("trap,%d,%d,%s,%08x\n", x, y, cudaGetErrorName(e), v);
    return 0;
  }
  if (argc != 2) {
  std::vector<int2> cs;
  for (int y = -2; y <= H + 1; y++) for (int xb = -8; xb <= W * 4 + 8; xb += 4) cs.push_back(make_int2(xb, y));
  int n = (int)cs.size();
  int2* dc; unsigned* dout; CK(cudaMalloc(&dc, n * sizeof(int2))); CK(cudaMalloc(&dout, n * 4));
  CK(cudaMemcpy(dc, cs.data(), n * sizeof(int2), cudaMemcpyHostToDevice));
  printf("op,mode,x,y,value\n");
  for (int mode = 0; mode < 2; mode++) {
    rd<<<(n + 127) / 128, 128>>>(s, dc, dout, n, mode);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> r(n); CK(cudaMemcpy(r.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) printf("read,%s,%d,%d,%08x\n", mode ? "clamp" : "zero", cs[i].x, cs[i].y, r[i]);
  }
  // writes: only 4-byte aligned x, one writer per coordinate (ordered so the result is defined)
  for (int mode = 0; mode < 2; mode++) {
    CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    std::vector<int2> ws;
    for (int y = -1; y <= H; y++) for (int xb = -4; xb <= W * 4; xb += 4) ws.push_back(make_int2(xb, y));
    int m = (int)ws.size(); int2* dw; CK(cudaMalloc(&dw, m * sizeof(int2)));
    CK(cudaMemcpy(dw, ws.data(), m * sizeof(int2), cudaMemcpyHostToDevice));
    for (int i = 0; i < m; i++) { wr<<<1, 1>>>(s, dw + i, 1, mode); }
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> r(W * H);
    CK(cudaMemcpy2DFromArray(r.data(), W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) printf("wrote,%s,%d,%d,%08x\n", mode ? "clamp" : "zero", ws[i].x, ws[i].y, 0x1000u + 0);
    for (int i = 0; i < W * H; i++) printf("after_write,%s,%d,%d,%08x\n", mode ? "clamp" : "zero", (i % W) * 4, i / W, r[i]);
    cudaFree(dw);
  }
  }
  // uchar4 surface reads (clamp); with one argument: one read at that byte x
  {
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t b; CK(cudaMallocArray(&b, &c4, W, H, cudaArraySurfaceLoadStore));
    std::vector<uchar4> hb(W * H);
    for (int i = 0; i < W * H; i++) hb[i] = make_uchar4(i, i + 64, i + 128, i + 192);
    CK(cudaMemcpy2DToArray(b, 0, 0, hb.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc rb; memset(&rb, 0, sizeof rb); rb.resType = cudaResourceTypeArray; rb.res.array.array = b;
    cudaSurfaceObject_t sb; CK(cudaCreateSurfaceObject(&sb, &rb));
    std::vector<int2> c;
    for (int xb = -8; xb <= W * 4 + 8; xb += 4) c.push_back(make_int2(xb, 1));
    if (argc > 1) { c.clear(); c.push_back(make_int2(atoi(argv[1]), 1)); }
    int k = (int)c.size(); int2* dk; uchar4* ok;
    CK(cudaMalloc(&dk, k * sizeof(int2))); CK(cudaMalloc(&ok, k * 4));
    CK(cudaMemcpy(dk, c.data(), k * sizeof(int2), cudaMemcpyHostToDevice));
    rd_u8x4<<<1, 128>>>(sb, dk, ok, k);
    cudaError_t e = cudaDeviceSynchronize();
    std::vector<uchar4> r(k); cudaMemcpy(r.data(), ok, k * 4, cudaMemcpyDeviceToHost);
    printf("u8x4_unaligned_status,%s\n", cudaGetErrorName(e));
    for (int i = 0; i < k; i++) printf("read_u8x4,clamp,%d,%d,%02x%02x%02x%02x\n", c[i].x, c[i].y, r[i].w, r[i].z, r[i].y, r[i].x);
  }
  return 0;
}
