// Virtual or physical address bits? (docs/accuracy.md exception D; tests/hw/red_classes.cu)
// red_classes.cu finds which lines A, B = A ^ D of one warp's REDG compete for a word position on
// the H100, as a function of D's address bits 7..29, inside one 1 GiB cudaMalloc'd region. Bits
// 21 and up lie above the 2 MiB page, so there the virtual and the physical distance may differ.
// This program maps ONE physical 2 MiB allocation (cuMemCreate) at several virtual addresses of a
// reserved range: at offset 0 and at 2^k for k = 21 .. (the range's size). Lane 0 and 2 update line
// A of the mapping at 0, lane 1 a line of the mapping at 2^k (template "min" of red_classes.cu:
// A's word 0, B's word 5, A's word 5), B = A ^ 2^k ^ m·128 (m = 0..15): virtually B is 2^k ^ m·128
// away from A, physically only m·128 (the same page). If the class is a function of the virtual
// address, the pairs that cost more follow red_classes' rule at D = 2^k ^ m·128; if of the physical
// one, at D = m·128. Bits above 29 can only be seen this way (virtually).
// One launch per pattern, one warp. By default lane i runs `atomicAdd(&range[w[i]], 1u)` with the
// range's start a kernel parameter (red_off: PTX atom.global.add, SASS REDG, as red_classes.cu).
// --generic instead loads a pointer per lane and runs atomicAdd on it (red_ptr: PTX atom.add on a
// generic address, not REDG): that is what the capture of 2026-11-22 (red_classes_alias_generic.csv)
// ran, so it does not measure REDG (ncu counts 0 l1tex__t_requests_pipe_lsu_mem_global_op_red there).
// The program prints the reserved range's address, then "N name w0 .. w31" (w: word index = byte offset from
// the range's start / 4, -1: inactive) per launch; names are TEMPLATE_aLINE_kK_mM (LINE: A's line
// in the page; all decimal). Checks every touched word through the mapping at 0 after each launch
// (aliases counted together), clears it, and the whole page at the end; prints OK or FAIL.
// The driver calls are fetched with cudaGetDriverEntryPointByVersion (no -lcuda needed).
// --controls adds (after the list above) what the capture of 2026-11-22 lacks: pairs inside the
// mapping at 0 (A and B = A ^ m·128 in one page, m = 1..15; the rule predicts m = 5, 10, 15 cost
// more if memory from cuMemCreate behaves as cudaMalloc's) and pairs between that page and a
// second physical page mapped at 3·2^21 (virtual distance 3·2^21 ^ m·128), named ctl_*.
// Usage: red_classes_alias [--generic] [--controls]
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../../examples/common.cuh"

__global__ void red_off(const long long* idx, unsigned* range) {  // REDG, as red_classes.cu's red_one
  const long long w = idx[threadIdx.x];
  if (w >= 0) atomicAdd(&range[w], 1u);
}

__global__ void red_ptr(unsigned* const* p) {  // --generic: a generic-address RED
  unsigned* w = p[threadIdx.x];
  if (w) atomicAdd(w, 1u);
}

#define DRV(call)                                                                          \
  do {                                                                                     \
    CUresult r_ = (call);                                                                  \
    if (r_ != CUDA_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, int(r_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

template <class F>
F entry(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q));
  if (!f || q != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "no driver entry point %s\n", name);
    std::exit(1);
  }
  return reinterpret_cast<F>(f);
}

struct Source {
  const char* name;
  int a, b;
  int words[32];
};
const Source kSources[] = {  // as in red_classes.cu
    {"min", 0, 7, {0, 229, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                   -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}},
    {"c17", 6, 1, {208, -1, -1, -1, -1, -1, 50, -1, 210, -1, -1, -1, -1, -1, -1, -1,
                   -1, 60, -1, -1, -1, 199, -1, -1, 219, -1, 214, -1, 220, -1, -1, -1}},
};

struct Pattern {
  std::string name;
  std::vector<long long> word;  // 32 word indices from the range's start, -1: inactive
};

int main(int argc, char** argv) {
  bool controls = false, generic = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--controls") controls = true;
    else if (a == "--generic") generic = true;
    else {
      std::fprintf(stderr, "usage: %s [--generic] [--controls]\n", argv[0]);
      return 2;
    }
  }
  CHECK(cudaFree(nullptr));  // creates the context
  auto memCreate = entry<decltype(&cuMemCreate)>("cuMemCreate");
  auto addressReserve = entry<decltype(&cuMemAddressReserve)>("cuMemAddressReserve");
  auto memMap = entry<decltype(&cuMemMap)>("cuMemMap");
  auto setAccess = entry<decltype(&cuMemSetAccess)>("cuMemSetAccess");
  auto granularity = entry<decltype(&cuMemGetAllocationGranularity)>("cuMemGetAllocationGranularity");

  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t gran = 0;
  DRV(granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const size_t page = size_t(2) << 20;
  if (gran > page) {
    std::fprintf(stderr, "allocation granularity %zu > 2 MiB\n", gran);
    return 1;
  }
  CUmemGenericAllocationHandle phys;
  DRV(memCreate(&phys, page, &prop, 0));
  // The largest range we get of 2^s bytes (s = 40 down to 32), aligned to its size.
  CUdeviceptr raw = 0;
  int bits = 0;
  for (int s = 40; s >= 32 && !raw; --s)
    if (addressReserve(&raw, size_t(1) << s, size_t(1) << s, 0, 0) == CUDA_SUCCESS) bits = s;
    else raw = 0;
  if (!raw) {
    std::fprintf(stderr, "no virtual range reserved\n");
    return 1;
  }
  const CUdeviceptr base = raw;
  if (base & ((CUdeviceptr(1) << bits) - 1)) {
    std::fprintf(stderr, "range 0x%llx not aligned to 2^%d\n", (unsigned long long)base, bits);
    return 1;
  }
  std::vector<int> ks;  // the page is mapped at base and at base + 2^k
  for (int k = 21; k < bits; ++k) ks.push_back(k);
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  auto mapAt = [&](size_t off) {
    DRV(memMap(base + off, page, 0, phys, 0));
    DRV(setAccess(base + off, page, &access, 1));
  };
  mapAt(0);
  for (int k : ks) mapAt(size_t(1) << k);
  const size_t second = 3 * page;  // --controls: another physical page here
  if (controls) {
    CUmemGenericAllocationHandle phys2;
    DRV(memCreate(&phys2, page, &prop, 0));
    DRV(memMap(base + second, page, 0, phys2, 0));
    DRV(setAccess(base + second, page, &access, 1));
    CHECK(cudaMemset(reinterpret_cast<void*>(base + second), 0, page));  // cuMemCreate does not promise zeros
  }
  std::printf("# range 0x%llx, 2^%d bytes; one physical 2 MiB page mapped at offsets 0 and 2^k, k = 21..%d; %s\n",
              (unsigned long long)base, bits, bits - 1,
              generic ? "generic atomicAdd (red_ptr)" : "atomicAdd on the range (red_off, REDG)");
  unsigned* page0 = reinterpret_cast<unsigned*>(base);
  CHECK(cudaMemset(page0, 0, page));

  std::vector<Pattern> ps;
  const std::pair<int, std::vector<int>> bases[] = {{0, {0x0, 0x2b58}}, {1, {0x6}}};  // source, A lines in the page
  for (const auto& sb : bases) {
    const Source& s = kSources[sb.first];
    for (int a : sb.second)
      for (int k : ks)
        for (int m = 0; m < 16; ++m) {
          Pattern p{std::string(s.name) + "_a" + std::to_string(a) + "_k" + std::to_string(k) + "_m" + std::to_string(m),
                    std::vector<long long>(32, -1)};
          const long long lineB = (1ll << (k - 7)) | (a ^ m);  // in the mapping at 2^k
          for (int i = 0; i < 32; ++i) {
            const int w = s.words[i];
            if (w < 0) continue;
            p.word[i] = (w / 32 == s.b ? lineB : a) * 32 + w % 32;
          }
          ps.push_back(p);
        }
  }
  if (controls)
    for (const auto& sb : bases) {
      const Source& s = kSources[sb.first];
      for (int a : sb.second)
        for (long long off : {0ll, static_cast<long long>(second / 128)})  // B's page: the same, the second
          for (int m = off ? 0 : 1; m < 16; ++m) {
            Pattern p{std::string("ctl_") + s.name + "_a" + std::to_string(a) + (off ? "_second" : "_same") + "_m" +
                          std::to_string(m),
                      std::vector<long long>(32, -1)};
            for (int i = 0; i < 32; ++i) {
              const int w = s.words[i];
              if (w < 0) continue;
              p.word[i] = (w / 32 == s.b ? off + (a ^ m) : a) * 32 + w % 32;
            }
            ps.push_back(p);
          }
    }
  unsigned** dp;
  long long* didx;
  CHECK(cudaMalloc(&dp, 32 * sizeof(unsigned*)));
  CHECK(cudaMalloc(&didx, 32 * sizeof(long long)));
  const long long pageWords = page / sizeof(unsigned);
  int failures = 0;
  for (size_t n = 0; n < ps.size(); ++n) {
    std::vector<unsigned*> ptr(32, nullptr);
    std::map<long long, unsigned> want;  // word (of the page at 0, or of the second page + 2^40) -> count
    const long long secondWords = second / sizeof(unsigned);
    for (int i = 0; i < 32; ++i)
      if (ps[n].word[i] >= 0) {
        const long long w = ps[n].word[i];
        ptr[i] = reinterpret_cast<unsigned*>(base + 4 * static_cast<CUdeviceptr>(w));
        const bool onSecond = controls && w >= secondWords && w < secondWords + pageWords;
        ++want[onSecond ? (1ll << 40) + w - secondWords : w % pageWords];
      }
    if (generic) {
      CHECK(cudaMemcpy(dp, ptr.data(), 32 * sizeof(unsigned*), cudaMemcpyHostToDevice));
      red_ptr<<<1, 32>>>(dp);
    } else {
      CHECK(cudaMemcpy(didx, ps[n].word.data(), 32 * sizeof(long long), cudaMemcpyHostToDevice));
      red_off<<<1, 32>>>(didx, reinterpret_cast<unsigned*>(base));
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (const auto& [key, c] : want) {
      const bool onSecond = key >= (1ll << 40);
      unsigned* at = onSecond ? reinterpret_cast<unsigned*>(base + second) + (key - (1ll << 40)) : page0 + key;
      const long long w = onSecond ? key - (1ll << 40) : key;
      unsigned got = 0;
      CHECK(cudaMemcpy(&got, at, sizeof got, cudaMemcpyDeviceToHost));
      if (got != c) {
        std::fprintf(stderr, "pattern %s: word %lld of the page holds %u, not %u\n", ps[n].name.c_str(), w, got, c);
        ++failures;
      }
      CHECK(cudaMemset(at, 0, sizeof(unsigned)));
    }
    std::printf("%zu %s", n, ps[n].name.c_str());
    for (long long w : ps[n].word) std::printf(" %lld", w);
    std::printf("\n");
    std::fflush(stdout);
  }
  std::vector<unsigned> all(controls ? 2 * pageWords : pageWords);
  CHECK(cudaMemcpy(all.data(), page0, page, cudaMemcpyDeviceToHost));
  if (controls) CHECK(cudaMemcpy(all.data() + pageWords, reinterpret_cast<unsigned*>(base + second), page, cudaMemcpyDeviceToHost));
  const size_t stray = all.size() - std::count(all.begin(), all.end(), 0u);
  if (stray) std::fprintf(stderr, "%zu words of the page(s) written that no pattern names\n", stray);
  failures += stray != 0;
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
