// How many L1 sectors one warp-wide REDG costs, pattern by pattern (docs/accuracy.md, exception D).
// Each launch is one warp running one `atomicAdd(&hist[w], 1u)` whose result is unused (REDG.E.ADD),
// lane i updating word idx[i] of a 256-word array (idx[i] < 0: the lane is inactive). Under
// `ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum` every launch is one row, so the
// counter is measured per pattern. The program prints one line per launch: its number, a name
// and the 32 word indices, for the analysis to pair with ncu's rows.
// Patterns: synthetic ones (k lanes on one word, two lanes at distance d, words of one sector with
// chosen multiplicities) and the first 256 warp accesses of tests/hw/accuracy/histogram.cu's
// uniform input (hist_global reads 32 consecutive bytes per warp access).
// Usage: red_passes [FILE]     FILE: one pattern per line, a name and 32 word indices (replaces the
//                              built-in list). Checks the histogram after every launch; prints OK or FAIL.
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

int main(int argc, char** argv) {
  std::vector<Pattern> ps;
  if (argc > 1) {
    std::ifstream in(argv[1]);
    for (std::string line; std::getline(in, line);) {
      std::istringstream ls(line);
      Pattern p;
      ls >> p.name;
      for (int w; ls >> w;) p.idx.push_back(w);
      if (p.idx.size() != 32) {
        std::fprintf(stderr, "%s: pattern %s has %zu indices, not 32\n", argv[1], p.name.c_str(), p.idx.size());
        return 2;
      }
      ps.push_back(p);
    }
  }
  if (ps.empty()) {
    auto none = [] { return std::vector<int>(32, -1); };
    for (int k = 1; k <= 32; ++k) {  // k lanes on word 0
      auto v = none();
      for (int i = 0; i < k; ++i) v[i] = 0;
      ps.push_back({"same_word_k" + std::to_string(k), v});
    }
    for (int d = 1; d < 32; ++d) {  // lanes 0 and d on word 0
      auto v = none();
      v[0] = v[d] = 0;
      ps.push_back({"pair_d" + std::to_string(d), v});
    }
    for (int m = 1; m <= 32; ++m) {  // lane i on word i % m
      std::vector<int> v(32);
      for (int i = 0; i < 32; ++i) v[i] = i % m;
      ps.push_back({"mod_m" + std::to_string(m), v});
    }
    for (int m = 1; m <= 32; ++m) {  // lane i on word 8 * (i % m): one word per sector
      std::vector<int> v(32);
      for (int i = 0; i < 32; ++i) v[i] = 8 * (i % m);
      ps.push_back({"sector_mod_m" + std::to_string(m), v});
    }
    const int mult[][2] = {{1, 1}, {2, 1}, {2, 2}, {3, 1}, {3, 2}, {4, 4}, {1, 4}, {8, 1}, {16, 16}};
    for (const auto& ab : mult) {  // a lanes on word 0, b on word 1 (one sector), then b on word 8 (next sector)
      for (int other : {1, 8, 32}) {
        auto v = none();
        for (int i = 0; i < ab[0]; ++i) v[i] = 0;
        for (int i = 0; i < ab[1]; ++i) v[ab[0] + i] = other;
        ps.push_back({"two_words_" + std::to_string(ab[0]) + "x0_" + std::to_string(ab[1]) + "x" + std::to_string(other), v});
      }
    }
    {
      Lcg rng(777);  // histogram.cu's uniform input
      std::vector<int> bytes(256 * 32);
      for (auto& b : bytes) b = static_cast<int>(static_cast<unsigned>((rng.next() + 1.0f) * 32768.0f) & 0xFF);
      for (int c = 0; c < 256; ++c)
        ps.push_back({"uniform_chunk" + std::to_string(c), std::vector<int>(bytes.begin() + 32 * c, bytes.begin() + 32 * c + 32)});
    }
  }
  int* idx;
  unsigned* hist;
  CHECK(cudaMalloc(&idx, 32 * sizeof(int)));
  CHECK(cudaMalloc(&hist, 256 * sizeof(unsigned)));
  int failures = 0;
  for (size_t p = 0; p < ps.size(); ++p) {
    CHECK(cudaMemcpy(idx, ps[p].idx.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(hist, 0, 256 * sizeof(unsigned)));
    red_one<<<1, 32>>>(idx, hist);
    CHECK(cudaGetLastError());
    std::vector<unsigned> got(256), want(256, 0);
    CHECK(cudaMemcpy(got.data(), hist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int w : ps[p].idx)
      if (w >= 0) ++want[w];
    failures += got != want;
    std::printf("%zu %s", p, ps[p].name.c_str());
    for (int w : ps[p].idx) std::printf(" %d", w);
    std::printf("\n");
  }
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
