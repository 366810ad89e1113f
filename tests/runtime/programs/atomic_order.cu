// A program whose output depends on the order of its CTAs' global atomics (issue 32, "The same
// result every run"; process_test.cpp): 256 CTAs each add one float of a wildly varying size to
// one sum (float addition is not associative: the sum's last bits depend on the order) and take a
// slot from a counter with atomicAdd's returned value (the slots' order is the CTAs' order).
#include <cstdio>

__global__ void order(float* sum, unsigned* counter, unsigned* slots) {
  if (threadIdx.x != 0) return;
  const float big = (blockIdx.x % 3 == 0) ? 1.0e8f : 1.0f;
  atomicAdd(sum, (blockIdx.x % 2 ? -1.0f : 1.0f) * big + 0.37f * blockIdx.x);
  const unsigned slot = atomicAdd(counter, 1u);
  slots[slot] = blockIdx.x;
  // Some work so that CTAs overlap when several host threads run them.
  volatile float x = 0;
  for (int i = 0; i < 200; ++i) x = x + i;
}

int main() {
  float* sum;
  unsigned *counter, *slots;
  cudaMalloc(&sum, 4);
  cudaMalloc(&counter, 4);
  cudaMalloc(&slots, 256 * 4);
  cudaMemset(sum, 0, 4);
  cudaMemset(counter, 0, 4);
  order<<<256, 64>>>(sum, counter, slots);
  float h = 0;
  unsigned s[256];
  cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(s, slots, sizeof s, cudaMemcpyDeviceToHost);
  unsigned long long hash = 1469598103934665603ull;
  for (unsigned v : s) hash = (hash ^ v) * 1099511628211ull;
  std::printf("sum %a slots %016llx first %u %u %u\n", h, hash, s[0], s[1], s[2]);
  return 0;
}
