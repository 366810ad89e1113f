#include <cstdio>
#include <cuda.h>
#include <fstream>
#include <sstream>
int main() {
  cuInit(0); CUdevice d; cuDeviceGet(&d, 0); CUcontext c; cuCtxCreate(&c, nullptr, 0, d);
  std::ifstream f("half_set.ptx"); std::stringstream ss; ss << f.rdbuf(); std::string ptx = ss.str();
  CUmodule m; CUresult r = cuModuleLoadData(&m, ptx.c_str()); if (r) { printf("load %d\n", r); return 1; }
  CUfunction k; cuModuleGetFunction(&k, m, "k");
  CUdeviceptr out; cuMemAlloc(&out, 80); cuMemsetD8(out, 0xAB, 80);
  void* args[] = {&out};
  r = cuLaunchKernel(k, 1,1,1, 1,1,1, 0, 0, args, nullptr); cuCtxSynchronize();
  unsigned h[20]; cuMemcpyDtoH(h, out, 80);
  for (int i = 0; i < 20; ++i) printf("case %d 0x%08x\n", i, h[i]);
  return r;
}
