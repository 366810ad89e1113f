// Device-side malloc/free and new/delete (heap_test.cpp).
#include <cstdint>

// Each thread allocates `n` ints, fills them, sums them, frees them; records the pointer.
extern "C" __global__ void alloc_fill(int n, unsigned long long* ptrs, int* sums) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  ptrs[t] = reinterpret_cast<unsigned long long>(p);
  if (p == nullptr) {
    sums[t] = -1;
    return;
  }
  for (int i = 0; i < n; ++i) p[i] = t + i;
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  sums[t] = s;
  free(p);
}

// Allocates and keeps: the blocks survive the launch, for `release` to free.
extern "C" __global__ void alloc_keep(unsigned long long bytes, unsigned long long* ptrs) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  ptrs[t] = reinterpret_cast<unsigned long long>(malloc(bytes));
}

extern "C" __global__ void release(unsigned long long* ptrs) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  free(reinterpret_cast<void*>(ptrs[t]));
}

extern "C" __global__ void write_through(unsigned long long* ptrs, int offset) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<int*>(ptrs[t])[offset] = t;
}

struct Counter {
  int value;
  __device__ explicit Counter(int v) : value(v * 3) {}
  __device__ ~Counter() { value = -1; }
};

// new/delete of an object and of an array.
extern "C" __global__ void new_delete(int* out) {
  const int t = threadIdx.x;
  Counter* c = new Counter(t);
  int* a = new int[t + 1];
  for (int i = 0; i <= t; ++i) a[i] = i;
  int s = 0;
  for (int i = 0; i <= t; ++i) s += a[i];
  out[t] = c->value + s;
  delete c;
  delete[] a;
}

extern "C" __global__ void aligned(unsigned long long* ptrs) {
  const int t = threadIdx.x;
  void* p = __nv_aligned_device_malloc(40, 256);
  ptrs[t] = reinterpret_cast<unsigned long long>(p);
}

extern "C" __global__ void bad_free(int* p) { free(p + 1); }

// Virtual calls (indirect calls through vtables) on objects made with new, with lanes of a warp
// calling different functions.
struct Shape {
  __device__ virtual int area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  int s;
  __device__ explicit Square(int v) : s(v) {}
  __device__ int area() const override { return s * s; }
};
struct Rect : Shape {
  int a, b;
  __device__ Rect(int x, int y) : a(x), b(y) {}
  __device__ int area() const override { return a * b; }
};

extern "C" __global__ void virtual_calls(int* out) {
  const int t = threadIdx.x;
  Shape* p = t % 3 == 0 ? static_cast<Shape*>(new Square(t)) : static_cast<Shape*>(new Rect(t, 2));
  out[t] = p->area();
  delete p;
}
