// Double precision math: sqrt, exp, sin.
__global__ void double_math(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double x = in[i];
    out[i] = sqrt(x) + exp(x) + sin(x) / (1.0 + x * x);
  }
}
