// One of two PTX modules driver_memory.cpp links with cuLink* (nvcc -ptx -rdc=true): a kernel that
// calls a function defined in the other (driver_link_b.cu).
extern __device__ int twice_plus_one(int v);

extern "C" __global__ void link_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = twice_plus_one(i);
}
