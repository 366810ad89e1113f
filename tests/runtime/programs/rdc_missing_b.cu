__device__ int helper(int x) { return x * 3; }
