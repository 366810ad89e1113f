// Which 128-byte lines compete in one warp-wide REDG on the H100 (docs/accuracy.md, exception D).
// tests/hw/red_passes.cu measured `atomicAdd(&hist[w], 1u)` on a 256-word (1 KiB) array: two lines
// i, j of it cost more L1 sectors than "once per update of a sector's most updated word" only when
// i ^ j == 7 (address bits 7..9 complementary) and both update a word at the same offset, a lane of
// the second line taking that offset before a lane of the first. Only bits 7..9 varied there; this
// program asks which address bits decide whether two lines are in such a class.
//
// Each launch is one warp running one REDG (red_one, as in red_passes.cu) on a 1 GiB-aligned
// 1 GiB region (2 GiB are cudaMalloc'd; the region's address is printed), so word indices cover
// address bits 2..29. A launch touches two lines, A (the line of lane 0: the class's first line)
// and B = A ^ D (byte distance D, an XOR), with the lanes of a template: the words of a warp whose
// two lines are known to cost more at lines i, i ^ 7 of the 1 KiB array (or a minimal synthetic
// one), moved to lines A and B at the same offsets and lanes. For each template and base line A,
// D runs over m·128 (m = 0..7: bits 7..9, m = 0 puts B on A: one line) and 2^k ^ m·128 for
// k = 10..29 and m = 0..7. If the lines compete iff F(A ^ B) = 0 for a linear (XOR) F of the
// address bits, then for each k exactly the m with F(2^k) = F(m·128) cost more (two values, m and
// m ^ 7, where F(2^k) lies in the span of bits 7..9's images; none where it does not). Several
// bases A test that only A ^ B matters. Controls: each template's lines alone (A, then B; the
// single-line rule is exact for those), and the templates at their own 1 KiB lines (same words
// as the red_passes capture). The program first allocates what red_passes.cu allocates (32 ints,
// then the 256-word array) and prints their addresses, since where that array lay decides which
// address bits its lines differ in; patterns named kib_* run on that array (the templates' own
// warps, as in red_passes_pairs.csv, to compare with that capture).
// The program prints one line per launch, "N name w0 .. w31" (word indices into the region,
// -1: lane inactive); names are TEMPLATE_aLINEA_dBYTES (hex; LINEA = byte offset of A / 128) or
// TEMPLATE_aLINEA_dBYTES_onlyA / _onlyB.
// Usage: red_classes --list     prints the built-in list (name and 32 word indices a line) and exits
//        red_classes [FILE]     FILE: one pattern per line, a name and 32 word indices into the
//                               region (kib_*: into the 1 KiB array; replaces the built-in list; tests/hw/red_classes_pairs.txt,
//                               written by tests/hw/tools/red_classes.py --write-pairs).
// Checks every touched word after each launch (then clears it) and the whole region at the end;
// prints OK or FAIL.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../examples/common.cuh"

__global__ void red_one(const int* idx, unsigned* hist) {
  const int w = idx[threadIdx.x];
  if (w >= 0) atomicAdd(&hist[w], 1u);
}

struct Pattern {
  std::string name;
  std::vector<int> idx;  // 32 entries
};

// Warps measured in the 1 KiB array (word indices; line = word / 32), lines a (the first line in
// lane order) and b = a ^ 7.
struct Source {
  const char* name;
  int a, b;
  int words[32];
};
const Source kSources[] = {
    // Synthetic, lines 0 and 7: lane 0 on A's word 0, lane 1 on B's word 5, lane 2 on A's word 5.
    {"min", 0, 7, {0, 229, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                   -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}},
    // red_passes_pairs.csv, c22_pair34 (uniform_chunk22's lines 3 and 4): 6 sectors, model 5.
    {"c22", 3, 4, {-1, -1, -1, -1, -1, 107, -1, -1, -1, -1, -1, -1, -1, -1, -1, 155,
                   -1, 123, -1, -1, -1, -1, -1, 147, -1, -1, 122, -1, -1, -1, -1, 119}},
    // red_passes_pairs.csv, c17_pair16 (uniform_chunk17's lines 6 and 1): 7 sectors, model 5.
    {"c17", 6, 1, {208, -1, -1, -1, -1, -1, 50, -1, 210, -1, -1, -1, -1, -1, -1, -1,
                   -1, 60, -1, -1, -1, 199, -1, -1, 219, -1, 214, -1, 220, -1, -1, -1}},
};

constexpr int kLineBits = 23;                      // 2^23 lines of 128 bytes: a 1 GiB region
constexpr size_t kRegion = size_t(1) << 30;        // bytes
constexpr size_t kWords = kRegion / sizeof(unsigned);

// The source's lanes on lines A and B (which = 1: A's lanes only, 2: B's only, 3: both).
std::vector<int> place(const Source& s, int lineA, int lineB, int which) {
  std::vector<int> v(32, -1);
  for (int i = 0; i < 32; ++i) {
    const int w = s.words[i];
    if (w < 0) continue;
    const bool onB = w / 32 == s.b;
    if (onB ? !(which & 2) : !(which & 1)) continue;
    v[i] = (onB ? lineB : lineA) * 32 + w % 32;
  }
  return v;
}

std::string hex(long long x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llx", x);
  return buf;
}

int main(int argc, char** argv) {
  std::vector<Pattern> ps;
  const bool list = argc > 1 && std::string(argv[1]) == "--list";
  if (argc > 1 && !list) {
    std::ifstream in(argv[1]);
    for (std::string line; std::getline(in, line);) {
      std::istringstream ls(line);
      Pattern p;
      ls >> p.name;
      for (long long w; ls >> w;) {
        if (w >= static_cast<long long>(kWords)) {
          std::fprintf(stderr, "%s: pattern %s: word %lld outside the region\n", argv[1], p.name.c_str(), w);
          return 2;
        }
        p.idx.push_back(static_cast<int>(w));
      }
      if (p.idx.size() != 32) {
        std::fprintf(stderr, "%s: pattern %s has %zu indices, not 32\n", argv[1], p.name.c_str(), p.idx.size());
        return 2;
      }
      ps.push_back(p);
    }
  }
  if (ps.empty()) {
    for (const Source& s : kSources) {  // the 1 KiB array, as red_passes.cu
      ps.push_back({std::string("kib_") + s.name, place(s, s.a, s.b, 3)});
      ps.push_back({std::string("kib_") + s.name + "_onlyA", place(s, s.a, s.b, 1)});
      ps.push_back({std::string("kib_") + s.name + "_onlyB", place(s, s.a, s.b, 2)});
    }
    // Base lines A per template: the source's own line (the 1 KiB control at D = 7·128), and
    // lines with high bits set (fixed arbitrary values, and all ones).
    const std::vector<std::vector<int>> bases = {
        {0x0, 0x3a5c0, 0x62b18, 0x7ffff8},  // min: A = 0 and three others (bits 7..9 of A = 0)
        {0x3, 0x51e6b},                          // c22: A = 3 (the capture's line), and another
        {0x6, 0x2c4d6},                          // c17: A = 6, and another
    };
    std::vector<int> ds;  // D / 128 (line distance, XOR)
    for (int m = 0; m < 8; ++m) ds.push_back(m);
    for (int k = 10; k < 7 + kLineBits; ++k)
      for (int m = 0; m < 8; ++m) ds.push_back((1 << (k - 7)) ^ m);
    for (size_t t = 0; t < std::size(kSources); ++t) {
      const Source& s = kSources[t];
      for (int a : bases[t]) {
        const std::string base = std::string(s.name) + "_a" + hex(a);
        for (int d : ds)
          ps.push_back({base + "_d" + hex(static_cast<long long>(d) << 7), place(s, a, a ^ d, 3)});
        const std::string d7 = "_d" + hex(7 << 7);
        ps.push_back({base + d7 + "_onlyA", place(s, a, a ^ 7, 1)});
        ps.push_back({base + d7 + "_onlyB", place(s, a, a ^ 7, 2)});
      }
    }
  }
  if (list) {
    for (const Pattern& p : ps) {
      std::printf("%s", p.name.c_str());
      for (int w : p.idx) std::printf(" %d", w);
      std::printf("\n");
    }
    return 0;
  }
  int* idx;
  unsigned* kib;
  unsigned* raw;
  CHECK(cudaMalloc(&idx, 32 * sizeof(int)));  // as red_passes.cu
  CHECK(cudaMalloc(&kib, 256 * sizeof(unsigned)));
  CHECK(cudaMemset(kib, 0, 256 * sizeof(unsigned)));
  CHECK(cudaMalloc(&raw, 2 * kRegion));
  const uintptr_t rawAddr = reinterpret_cast<uintptr_t>(raw);
  unsigned* hist = reinterpret_cast<unsigned*>((rawAddr + kRegion - 1) & ~(kRegion - 1));
  CHECK(cudaMemset(raw, 0, 2 * kRegion));
  CHECK(cudaDeviceSynchronize());
  std::printf("# idx 0x%llx, 1 KiB array 0x%llx, cudaMalloc 0x%llx (2 GiB), region 0x%llx (1 GiB)\n",
              static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(idx)),
              static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(kib)),
              static_cast<unsigned long long>(rawAddr), static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(hist)));
  int failures = 0;
  for (size_t p = 0; p < ps.size(); ++p) {
    const bool small = ps[p].name.rfind("kib_", 0) == 0;
    unsigned* h = small ? kib : hist;
    for (int w : ps[p].idx)
      if (small && w >= 256) {
        std::fprintf(stderr, "pattern %s: word %d outside the 1 KiB array\n", ps[p].name.c_str(), w);
        return 2;
      }
    CHECK(cudaMemcpy(idx, ps[p].idx.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
    red_one<<<1, 32>>>(idx, h);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> words;
    for (int w : ps[p].idx)
      if (w >= 0) words.push_back(w);
    std::sort(words.begin(), words.end());
    for (size_t i = 0; i < words.size();) {
      size_t j = i;
      while (j < words.size() && words[j] == words[i]) ++j;
      unsigned got = 0;
      CHECK(cudaMemcpy(&got, h + words[i], sizeof got, cudaMemcpyDeviceToHost));
      if (got != j - i) {
        std::fprintf(stderr, "pattern %s: word %d holds %u, not %zu\n", ps[p].name.c_str(), words[i], got, j - i);
        ++failures;
      }
      CHECK(cudaMemset(h + words[i], 0, sizeof(unsigned)));
      i = j;
    }
    std::printf("%zu %s", p, ps[p].name.c_str());
    for (int w : ps[p].idx) std::printf(" %d", w);
    std::printf("\n");
    std::fflush(stdout);
  }
  // Every word was cleared after its launch: both arrays must be zero again.
  std::vector<unsigned> all(2 * kWords + 256);
  CHECK(cudaMemcpy(all.data(), raw, 2 * kRegion, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(all.data() + 2 * kWords, kib, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const size_t stray = all.size() - std::count(all.begin(), all.end(), 0u);
  if (stray) std::fprintf(stderr, "%zu words written that no pattern names\n", stray);
  failures += stray != 0;
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
