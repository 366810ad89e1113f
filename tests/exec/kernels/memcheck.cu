// Global accesses outside every allocation (tests/exec/memcheck_test.cpp).
extern "C" __global__ void read_at(const int* p, long long off, int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[off + blockIdx.x * blockDim.x + threadIdx.x];
}

extern "C" __global__ void write_at(int* p, long long off, int value) { p[off + threadIdx.x] = value; }

extern "C" __global__ void read_one(const int* p, long long off, int* out) {
  if (threadIdx.x == 5) out[0] = p[off];
}

extern "C" __global__ void add_at(int* p, long long off) { atomicAdd(p + off, 1); }
