// Kernels the driver API test programs load as modules (driver_api.cpp, driver_mixed.cu,
// driver_memory.cpp): built
// into PTX text (nvcc -ptx), a fatbinary with PTX (nvcc -fatbin, code=compute_90) and a cubin
// (machine code only, which warpscope refuses).
extern "C" __global__ void scale_add(float* y, const float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Parameters of mixed sizes and alignments: in a CU_LAUNCH_PARAM_BUFFER_POINTER buffer each one
// sits at its own alignment (c at 0, d at 8, out at 16, s at 24).
extern "C" __global__ void mixed_params(char c, double d, int* out, short s) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    out[0] = c;
    out[1] = static_cast<int>(d);
    out[2] = s;
  }
}

__device__ int counter;
__constant__ int offsets[4];

// Adds every thread's 1 to `counter` and writes offsets[i % 4] + i to out[i].
extern "C" __global__ void count_and_offset(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counter, 1);
    out[i] = offsets[i % 4] + i;
  }
}

// Reads a 2-D texture object at its texel centres, one block per row: out[y * w + x].
extern "C" __global__ void tex_read(cudaTextureObject_t t, float* out, int w, int h) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
