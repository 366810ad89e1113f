// Seed 001's Laplace (Jacobi) step, kept as the lecture wrote it, and seed 002's 2-D access
// `BaseAddress + width * ty + tx` with a row pitch that may be padded to a multiple of the warp
// size. Checked by tests/corpus/stencil_test.cpp.

// Seed 001: one Jacobi sweep for the Laplace equation with Dirichlet boundaries. The grid must
// cover exactly I x J points (no bounds check, as in the lecture).
extern "C" __global__ void lap(int I, int J, float* u1, float* u2) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  int id = i + j * I;
  if (i == 0 || i == I - 1 || j == 0 || j == J - 1) {
    u2[id] = u1[id];  // Dirichlet b.c.'s
  } else {
    u2[id] = 0.25f * (u1[id - 1] + u1[id + 1] + u1[id - I] + u1[id + I]);
  }
}

// Seed 002: element (tx, ty) of a width x height array whose rows are `pitch` elements apart.
// out = 2 * in + row index; the padding columns are not touched.
extern "C" __global__ void scale2d_pitched(const float* in, float* out, int width, int height,
                                           int pitch) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  int ty = blockIdx.y * blockDim.y + threadIdx.y;
  if (tx < width && ty < height) out[pitch * ty + tx] = 2.0f * in[pitch * ty + tx] + (float)ty;
}
