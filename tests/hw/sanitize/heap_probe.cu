// Device-heap misuse and grid.sync() outside a cooperative launch (issue 31), one bug per mode, to
// run under compute-sanitizer on the H200 (tests/hw/capture_heap_sanitize.sh) and under
// `warpscope sanitize` (tests/runtime/sanitize_heap_test.cpp). Each mode is its own process: a
// fault leaves the context unusable. Every kernel runs one thread unless its mode says otherwise;
// sizes and offsets come in as parameters so that nvcc keeps each access as written.
//   double_free     malloc(100), then free of the block twice
//   double_free_warp the same in each of 4 threads, each with its own heap block
//   free_offset     free of the block's address + 16 (inside the block)
//   free_cudamalloc free of a cudaMalloc pointer
//   free_local      free of a local array's (generic) address
//   free_shared     free of a __shared__ array's (generic) address
//   write_byte      a 1-byte write just past a 100-byte block (offset 100)
//   read_byte       a 1-byte read there
//   write_elem      a 4-byte write one int past a 100-byte block (int index 25)
//   read_elem       a 4-byte read there
//   write_far       a 4-byte write 4096 bytes past the block's end
//   read_far        a 4-byte read there
//   use_after_free  a 4-byte read of a block after its free
//   leak            two threads malloc 100 and 48 bytes each and never free them; exit
//   leak_reset      the same, then cudaDeviceReset before exit
//   ok              malloc/free and new[]/delete[] used correctly, and free(NULL)
//   grid_sync       cg::this_grid().sync() in a kernel launched with <<<2, 32>>>
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void double_free(int bytes, int* out) {
  int* p = static_cast<int*>(malloc(bytes));
  p[0] = 7;
  out[0] = p[0];
  free(p);  // heap: first free
  free(p);  // heap: second free
}

__global__ void free_offset(int bytes, int offset, int* out) {
  char* p = static_cast<char*>(malloc(bytes));
  p[0] = 1;
  out[0] = p[0];
  free(p + offset);  // heap: free inside the block
}

__global__ void free_cudamalloc(int* d) {
  free(d);  // heap: free of cudaMalloc memory
}

__global__ void free_local(int i, int* out) {
  int local[8];
  for (int k = 0; k < 8; ++k) local[k] = k * i;
  out[0] = local[i & 7];
  free(local);  // heap: free of a local address
}

__global__ void free_shared(int i, int* out) {
  __shared__ int s[8];
  s[i & 7] = i;
  __syncthreads();
  out[0] = s[i & 7];
  free(s);  // heap: free of a shared address
}

__global__ void write_past(int bytes, int offset, int wide, int* out) {
  char* p = static_cast<char*>(malloc(bytes));
  p[0] = 1;
  if (wide)
    reinterpret_cast<int*>(p)[offset / 4] = 5;  // heap: int write past
  else
    p[offset] = 5;  // heap: byte write past
  out[0] = p[0];
  free(p);
}

__global__ void read_past(int bytes, int offset, int wide, int* out) {
  char* p = static_cast<char*>(malloc(bytes));
  p[0] = 1;
  if (wide)
    out[0] = reinterpret_cast<int*>(p)[offset / 4];  // heap: int read past
  else
    out[0] = p[offset];  // heap: byte read past
  free(p);
}

__global__ void use_after_free(int bytes, int* out) {
  int* p = static_cast<int*>(malloc(bytes));
  p[0] = 9;
  free(p);
  out[0] = p[0];  // heap: read after free
}

__global__ void leak(int* out) {
  void* a = malloc(100);  // heap: leak 100
  void* b = malloc(48);   // heap: leak 48
  out[threadIdx.x] = (a != nullptr) + (b != nullptr);
}

__global__ void correct(int n, int* out) {
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  int* q = new int[n];
  for (int k = 0; k < n; ++k) {
    p[k] = k;
    q[k] = 2 * k;
  }
  int s = 0;
  for (int k = 0; k < n; ++k) s += p[k] + q[k];
  out[threadIdx.x] = s;
  free(p);
  delete[] q;
  free(nullptr);
}

__global__ void grid_sync(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  cg::this_grid().sync();  // heap: grid sync
  out[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "ok";
  int* out = nullptr;
  int* d = nullptr;
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMalloc(&d, 256 * sizeof(int));
  cudaMemset(out, 0, 256 * sizeof(int));
  bool known = true;
  if (!strcmp(m, "double_free")) double_free<<<1, 1>>>(100, out);
  else if (!strcmp(m, "double_free_warp")) double_free<<<1, 4>>>(100, out);
  else if (!strcmp(m, "free_offset")) free_offset<<<1, 1>>>(100, 16, out);
  else if (!strcmp(m, "free_cudamalloc")) free_cudamalloc<<<1, 1>>>(d);
  else if (!strcmp(m, "free_local")) free_local<<<1, 1>>>(3, out);
  else if (!strcmp(m, "free_shared")) free_shared<<<1, 1>>>(3, out);
  else if (!strcmp(m, "write_byte")) write_past<<<1, 1>>>(100, 100, 0, out);
  else if (!strcmp(m, "read_byte")) read_past<<<1, 1>>>(100, 100, 0, out);
  else if (!strcmp(m, "write_elem")) write_past<<<1, 1>>>(100, 100, 1, out);
  else if (!strcmp(m, "read_elem")) read_past<<<1, 1>>>(100, 100, 1, out);
  else if (!strcmp(m, "write_far")) write_past<<<1, 1>>>(100, 100 + 4096, 1, out);
  else if (!strcmp(m, "read_far")) read_past<<<1, 1>>>(100, 100 + 4096, 1, out);
  else if (!strcmp(m, "use_after_free")) use_after_free<<<1, 1>>>(100, out);
  else if (!strcmp(m, "leak") || !strcmp(m, "leak_reset")) leak<<<1, 2>>>(out);
  else if (!strcmp(m, "ok")) correct<<<1, 2>>>(4, out);
  else if (!strcmp(m, "grid_sync")) grid_sync<<<2, 32>>>(out);
  else known = false;
  if (!known) {
    std::printf("unknown mode %s\n", m);
    return 2;
  }
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  int h[2] = {-1, -1};
  const cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s: launch %s, sync %s, copy %s, out %d %d\n", m, cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(copy), h[0], h[1]);
  cudaFree(out);
  cudaFree(d);
  if (!strcmp(m, "leak_reset")) std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  return 0;
}
