// Thrust from CCCL 3.0 (issue 29: header-only device code runs; its transform kernel elects a
// leader with `elect.sync _|p`): sequence, transform, reduce. The sum of the squares of 0..99 is
// 328350 (n(n+1)(2n+1)/6 with n = 99); every element of the transform is checked on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <cstdio>

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

int main() {
  const int n = 1 << 16;
  thrust::device_vector<float> v(n);
  thrust::sequence(v.begin(), v.end());
  thrust::device_vector<float> w(n);
  thrust::transform(v.begin(), v.end(), w.begin(), square());
  thrust::host_vector<float> h = w;
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h[i] != float(i) * float(i);
  const float s = thrust::reduce(w.begin(), w.begin() + 100);
  std::printf("wrong %d sum %.1f\n", wrong, s);
  return wrong == 0 ? 0 : 1;
}
