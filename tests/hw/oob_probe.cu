// Ground truth for warpscope's out-of-bounds model (docs/runtime.md, "Out-of-bounds accesses"):
// which stray global addresses an H100 maps, and what a read there returns. One case per process
// (a fault poisons the context):
//
//   for c in $(./oob_probe list); do ./oob_probe $c; done > oob_probe.csv
//
// Each line: case,allocation bases (hex, relative to the first),distance,error of the access,
// value read (hex). Cases read (and, for "w" cases, write then read back) one int at an offset
// from a buffer: just past the end, in a freed neighbour (filled with 0x5a first),
// at the end of the first 2 MiB granule and just past it, and 1/2/4/16 MiB away.
#include <cstdio>
#include <cstring>
#include <string>

__global__ void probe(int* p, long long off, int write, int* out) {
  if (write) p[off] = 0x12345678;
  *out = p[off];
}

struct Case {
  const char* name;
  long long offset_bytes;  // from the last buffer's base
  bool write;
};

const Case kCases[] = {
    {"after_end_100B", 1024 + 100, false},          {"before_4k_freed_gap", -4096, false},
    {"after_end_1k", 1024 + 1024, false},    {"w_after_end_64k", 1024 + 65536, true},
    {"w_1MiB", 1 << 20, true},               {"w_2MiB", 2 << 20, true},
    {"w_4MiB", 4 << 20, true},               {"w_16MiB", 16 << 20, true},
    {"w_before_64k", -65536, true},          {"w_before_4MiB", -(4ll << 20), true},
};

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "list") == 0) {
    for (const Case& c : kCases) std::printf("%s\n", c.name);
    return 0;
  }
  const Case* c = nullptr;
  for (const Case& k : kCases)
    if (std::strcmp(argv[1], k.name) == 0) c = &k;
  if (c == nullptr) return 2;
  // a: 1 MiB, x: 16 KiB (filled with 0x5a, then freed), b: 1 KiB, out.
  char *a, *x, *b;
  int* out;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&x, 16 << 10);
  cudaMalloc(&b, 1024);
  cudaMalloc(&out, sizeof(int));
  cudaMemset(x, 0x5a, 16 << 10);
  cudaDeviceSynchronize();
  const long long xb = x - a, bb = b - a, ob = reinterpret_cast<char*>(out) - a;
  cudaFree(x);
  cudaMemset(out, 0, sizeof(int));
  probe<<<1, 1>>>(reinterpret_cast<int*>(b), c->offset_bytes / 4, c->write ? 1 : 0, out);
  const cudaError_t e = cudaDeviceSynchronize();
  int v = 0;
  cudaMemcpy(&v, out, sizeof v, cudaMemcpyDeviceToHost);
  std::printf("%s,a=0 x=0x%llx b=0x%llx out=0x%llx,%lld,%s,0x%08x\n", c->name, xb, bb, ob, c->offset_bytes,
              cudaGetErrorName(e), static_cast<unsigned>(v));
  return 0;
}
