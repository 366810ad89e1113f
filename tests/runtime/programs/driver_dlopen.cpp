// How programs reach the driver without linking it (the static runtime, Python bindings, ...):
// dlopen("libcuda.so.1") and dlsym. Prints whether that object is the runtime's own
// (libcudart.so.13, opened second), and runs cuInit and cuDeviceGetCount through the pointers.
#include <dlfcn.h>

#include <cstdio>

int main() {
  void* drv = dlopen("libcuda.so.1", RTLD_NOW);
  if (drv == nullptr) {
    std::printf("dlopen libcuda.so.1 failed: %s\n", dlerror());
    return 1;
  }
  void* rt = dlopen("libcudart.so.13", RTLD_NOW);
  if (rt == nullptr) {
    std::printf("dlopen libcudart.so.13 failed: %s\n", dlerror());
    return 1;
  }
  std::printf("same object: %s\n", drv == rt ? "yes" : "no");
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  auto init = reinterpret_cast<Init>(dlsym(drv, "cuInit"));
  auto count = reinterpret_cast<Count>(dlsym(drv, "cuDeviceGetCount"));
  int n = -1;
  const int r1 = init != nullptr ? init(0) : -1;
  const int r2 = count != nullptr ? count(&n) : -1;
  std::printf("cuInit: %d, cuDeviceGetCount: %d, devices: %d\n", r1, r2, n);
  return r1 == 0 && r2 == 0 && n == 1 ? 0 : 1;
}
