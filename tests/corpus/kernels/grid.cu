// Thread and block indices in 2-D and 3-D launches. Each thread writes its coordinates at the
// flat position (block-major, then x-fastest inside the block), so the test can check the
// mapping of every thread. Checked by tests/corpus/grid_test.cpp.

#define GRID2D_FIELDS 8
#define GRID3D_FIELDS 16

extern "C" __global__ void grid_2d(int* out, int width) {
  unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned in_block = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned flat = block * (blockDim.x * blockDim.y) + in_block;
  int* o = out + GRID2D_FIELDS * flat;
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockIdx.x;
  o[4] = blockIdx.y;
  o[5] = blockIdx.z;
  o[6] = gy * width + gx;  // the row-major element this thread would own
  o[7] = gridDim.x * 100 + gridDim.y;
}

extern "C" __global__ void grid_3d(int* out) {
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned in_block = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned flat = block * (blockDim.x * blockDim.y * blockDim.z) + in_block;
  unsigned lane, warp;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));  // lanes follow the x-fastest flat thread id
  warp = in_block / 32;
  int* o = out + GRID3D_FIELDS * flat;
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockIdx.x;
  o[4] = blockIdx.y;
  o[5] = blockIdx.z;
  o[6] = blockDim.x;
  o[7] = blockDim.y;
  o[8] = blockDim.z;
  o[9] = gridDim.x;
  o[10] = gridDim.y;
  o[11] = gridDim.z;
  o[12] = lane;
  o[13] = warp;
  o[14] = in_block;
  o[15] = 1;  // written at all
}
