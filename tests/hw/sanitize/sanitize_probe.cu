// Bugs compute-sanitizer finds, one per mode (issue 31: the layout and wording of its reports, and
// which tool reports what). Run under each tool by tests/hw/capture_sanitize.sh.
//   oob_global     a read one element past a cudaMalloc'ed array (memcheck)
//   oob_shared     a write past a __shared__ array (memcheck)
//   misaligned     a 4-byte read at an odd address (memcheck)
//   leak           an allocation never freed (memcheck --leak-check full)
//   api_error      cudaFree of a pointer that is not an allocation (memcheck: API error)
//   raw            a shared-memory read of another thread's write with no __syncthreads (racecheck)
//   waw            two threads write one shared word (racecheck)
//   war            a read, then another thread's write, no barrier between (racecheck)
//   clean          a correct kernel with barriers (nothing from any tool)
//   uninit         a read of cudaMalloc'ed memory nobody wrote (initcheck)
//   divergent      __syncthreads() inside a branch only some threads take (synccheck)
//   syncwarp_mask  __syncwarp with a mask naming exited lanes (synccheck)
#include <cstdio>
#include <cstring>

__global__ void read_past(const int* a, int n, int* out) { out[threadIdx.x] = a[threadIdx.x + n - 31]; }
__global__ void shared_past(int* out, int extra) {
  __shared__ int s[64];
  s[threadIdx.x + extra] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}
__global__ void misaligned(const char* p, int* out) { out[0] = *reinterpret_cast<const int*>(p + 1); }
__global__ void raw(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256];  // no barrier between the write and the read
}
__global__ void waw(int* out) {
  __shared__ int s[1];
  s[0] = threadIdx.x;  // every thread writes one word
  __syncthreads();
  out[threadIdx.x] = s[0];
}
__global__ void war(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = 1;
  __syncthreads();
  const int v = s[(threadIdx.x + 32) % 256];
  s[threadIdx.x] = v + 1;  // others read this word above with no barrier between
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void clean(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256];
}
__global__ void uninit(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x] + 1; }
__global__ void divergent(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 64) __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void syncwarp_mask(int* out) {
  if (threadIdx.x >= 16) return;
  __syncwarp(0xffffffffu);
  out[threadIdx.x] = 1;
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "clean";
  int *a = nullptr, *out = nullptr;
  cudaMalloc(&a, 256 * sizeof(int));
  cudaMalloc(&out, 256 * sizeof(int));
  if (strcmp(m, "uninit") != 0) cudaMemset(a, 0, 256 * sizeof(int));
  if (!strcmp(m, "oob_global")) read_past<<<1, 32>>>(a, 256, out);
  else if (!strcmp(m, "oob_shared")) shared_past<<<1, 64>>>(out, 100000);
  else if (!strcmp(m, "misaligned")) misaligned<<<1, 1>>>(reinterpret_cast<const char*>(a), out);
  else if (!strcmp(m, "leak")) { int* l; cudaMalloc(&l, 1000); }
  else if (!strcmp(m, "api_error")) { int x; cudaFree(&x); }
  else if (!strcmp(m, "raw")) raw<<<1, 256>>>(out);
  else if (!strcmp(m, "waw")) waw<<<1, 64>>>(out);
  else if (!strcmp(m, "war")) war<<<1, 256>>>(out);
  else if (!strcmp(m, "clean")) clean<<<1, 256>>>(out);
  else if (!strcmp(m, "uninit")) uninit<<<1, 32>>>(a, out);
  else if (!strcmp(m, "divergent")) divergent<<<1, 256>>>(out);
  else if (!strcmp(m, "syncwarp_mask")) syncwarp_mask<<<1, 32>>>(out);
  printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(a);
  cudaFree(out);
  return 0;
}
