// Warp-level primitives (kernels/warp.cu): votes, __activemask, bit intrinsics, shuffles.
// Tolerance: bit-exact.
#include "corpus.hpp"

#include <bit>

namespace corpus {
namespace {

// Lanes that exist in the warp holding thread `tid` of a 1-D block of `block` threads.
std::uint32_t existing_lanes(unsigned tid, unsigned block) {
  const unsigned count = block - (tid & ~31u);
  return count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
}

// Blocks of 48 threads: warp 0 is full, warp 1 has 16 lanes.
TEST(Warp, VotesOverFullPartialAndDivergentWarps) {
  constexpr unsigned kBlocks = 4, kThreads = 48, kTotal = kBlocks * kThreads;
  Rng rng(51);
  std::vector<int> in(kTotal);
  for (unsigned t = 0; t < kTotal; ++t) {
    const unsigned warp_case = ((t / kThreads) * 2 + (t % kThreads) / 32) % 4;
    const unsigned lane = (t % kThreads) % 32;
    switch (warp_case) {
      case 0: in[t] = 1 + static_cast<int>(lane); break;                 // all true
      case 1: in[t] = -static_cast<int>(lane); break;                    // all false
      case 2: in[t] = static_cast<int>(rng.int_in(-5, 5)); break;        // mixed
      default: in[t] = lane == 5 ? 9 : 0; break;                         // one lane true
    }
  }
  Device device;
  Module module = load(device, "warp");
  Buffer<int> d_in(device, in), all(device, kTotal), any(device, kTotal);
  Buffer<unsigned> ballot(device, kTotal), sub(device, kTotal);
  launch(device, module, "warp_vote", Dim3{kBlocks}, Dim3{kThreads}, d_in.ptr(), all.ptr(),
         any.ptr(), ballot.ptr(), sub.ptr());
  std::vector<int> want_all(kTotal), want_any(kTotal);
  std::vector<unsigned> want_ballot(kTotal), want_sub(kTotal);
  for (unsigned t = 0; t < kTotal; ++t) {
    const unsigned tid = t % kThreads, warp_start = t - tid % 32;
    const std::uint32_t mask = existing_lanes(tid, kThreads);
    std::uint32_t votes = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
      if ((mask >> lane & 1u) && in[warp_start + lane] > 0) votes |= 1u << lane;
    want_ballot[t] = votes;
    want_all[t] = votes == mask ? 1 : 0;
    want_any[t] = votes != 0 ? 1 : 0;
    want_sub[t] = tid % 32 < 20 ? (votes & 0x000fffffu) : 0u;
  }
  auto as_bool = [](std::vector<int> v) {
    for (int& x : v) x = x != 0 ? 1 : 0;
    return v;
  };
  EXPECT_TRUE(bitwise_equal(as_bool(all.download()), want_all));
  EXPECT_TRUE(bitwise_equal(as_bool(any.download()), want_any));
  EXPECT_TRUE(bitwise_equal(ballot.download(), want_ballot));
  EXPECT_TRUE(bitwise_equal(sub.download(), want_sub));
}

TEST(Warp, ActiveMask) {
  constexpr unsigned kBlocks = 2, kThreads = 48, kTotal = kBlocks * kThreads;
  Device device;
  Module module = load(device, "warp");
  Buffer<unsigned> full(device, kTotal), branch(device, kTotal);
  launch(device, module, "warp_activemask", Dim3{kBlocks}, Dim3{kThreads}, full.ptr(),
         branch.ptr());
  const std::vector<unsigned> got_full = full.download(), got_branch = branch.download();
  std::vector<unsigned> want_full(kTotal), want_branch(kTotal);
  for (unsigned t = 0; t < kTotal; ++t) {
    const unsigned tid = t % kThreads, lane = tid % 32, warp_start_tid = tid - lane;
    want_full[t] = existing_lanes(tid, kThreads);
    std::uint32_t taking = 0;  // lanes of this warp that enter the branch
    for (unsigned l = 0; l < 32; ++l)
      if (warp_start_tid + l < kThreads && (warp_start_tid + l) % 3 == 0) taking |= 1u << l;
    want_branch[t] = tid % 3 == 0 ? taking : 0u;
    if (tid % 3 == 0) {
      // Guaranteed by CUDA: the caller is in the mask, and only lanes in the branch can be.
      EXPECT_TRUE(got_branch[t] >> lane & 1u) << "thread " << t;
      EXPECT_EQ(got_branch[t] & ~taking, 0u) << "thread " << t;
    }
  }
  EXPECT_TRUE(bitwise_equal(got_full, want_full));
  // A SIMT warp runs the branch once for all its lanes that take it (what the hardware does).
  EXPECT_TRUE(bitwise_equal(got_branch, want_branch));
}

std::uint32_t reverse32(std::uint32_t v) {
  std::uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

std::uint64_t reverse64(std::uint64_t v) {
  return (static_cast<std::uint64_t>(reverse32(static_cast<std::uint32_t>(v))) << 32) |
         reverse32(static_cast<std::uint32_t>(v >> 32));
}

TEST(Warp, BitIntrinsics) {
  Rng rng(52);
  std::vector<unsigned> in = {0u, 1u, 0x80000000u, 0xffffffffu, 0x00010000u, 0x7fffffffu};
  std::vector<unsigned long long> in64 = {0ull, 1ull, 1ull << 63, ~0ull, 1ull << 32, 0x00f0ull};
  while (in.size() < 500) {
    const std::uint64_t r = rng.next_u64();
    const int shift = static_cast<int>(rng.int_in(0, 63));
    in.push_back(static_cast<unsigned>(r >> (shift % 32)));
    in64.push_back(r >> shift);
  }
  const int n = static_cast<int>(in.size());
  Device device;
  Module module = load(device, "warp");
  Buffer<unsigned> d_in(device, in);
  Buffer<unsigned long long> d_in64(device, in64), brev64(device, in.size());
  Buffer<int> out32(device, 4 * in.size()), out64(device, 3 * in.size());
  launch(device, module, "bit_ops", blocks_for(in.size(), 128), Dim3{128}, d_in.ptr(),
         d_in64.ptr(), out32.ptr(), out64.ptr(), brev64.ptr(), n);
  std::vector<int> want32, want64;
  std::vector<unsigned long long> want_brev64;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t v = in[i];
    const std::uint64_t w = in64[i];
    want32.insert(want32.end(), {std::popcount(v), std::countl_zero(v),
                                 static_cast<int>(reverse32(v)),
                                 v == 0 ? 0 : std::countr_zero(v) + 1});
    want64.insert(want64.end(), {std::popcount(w), std::countl_zero(w),
                                 w == 0 ? 0 : std::countr_zero(w) + 1});
    want_brev64.push_back(reverse64(w));
  }
  EXPECT_TRUE(bitwise_equal(out32.download(), want32));
  EXPECT_TRUE(bitwise_equal(out64.download(), want64));
  EXPECT_TRUE(bitwise_equal(brev64.download(), want_brev64));
}

TEST(Warp, ShufflesAcrossTheFullWarp) {
  constexpr unsigned kBlocks = 2, kThreads = 64, kTotal = kBlocks * kThreads;
  std::vector<int> in(kTotal);
  for (unsigned t = 0; t < kTotal; ++t) in[t] = static_cast<int>(t * 1000 + 7);
  Device device;
  Module module = load(device, "warp");
  Buffer<int> d_in(device, in), out(device, 4 * kTotal);
  launch(device, module, "warp_shuffle", Dim3{kBlocks}, Dim3{kThreads}, d_in.ptr(), out.ptr());
  std::vector<int> want;
  for (unsigned t = 0; t < kTotal; ++t) {
    const unsigned lane = t % 32, base = t - lane;
    want.push_back(in[base + (7 * lane + 3) % 32]);
    want.push_back(lane >= 3 ? in[t - 3] : in[t]);       // up: lanes below delta keep theirs
    want.push_back(lane + 5 < 32 ? in[t + 5] : in[t]);   // down: lanes past the end keep theirs
    want.push_back(in[base + (lane ^ 6u)]);
  }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

TEST(Warp, ShufflesWithSubWarpWidths) {
  constexpr unsigned kThreads = 64;
  std::vector<int> in(kThreads);
  std::vector<double> din(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) {
    in[t] = static_cast<int>(t) * 3 - 50;
    din[t] = 1.0 / (t + 1.0) + 1e15 * t;  // uses both 32-bit halves
  }
  Device device;
  Module module = load(device, "warp");
  Buffer<int> d_in(device, in), out(device, 4 * kThreads);
  Buffer<double> d_din(device, din), dout(device, kThreads);
  launch(device, module, "warp_shuffle_width", Dim3{1}, Dim3{kThreads}, d_in.ptr(), d_din.ptr(),
         out.ptr(), dout.ptr());
  std::vector<int> want;
  std::vector<double> want_d;
  for (unsigned t = 0; t < kThreads; ++t) {
    const unsigned lane = t % 32, base = t - lane;
    const unsigned g8 = base + (lane & ~7u);
    want.push_back(in[g8 + 2]);                                   // shfl(v, 2, 8)
    want.push_back(in[g8 + (lane + 5) % 8]);                      // shfl(v, lane + 5, 8)
    want.push_back(lane % 16 >= 2 ? in[t - 2] : in[t]);           // shfl_up(v, 2, 16)
    want.push_back(lane % 4 + 3 < 4 ? in[t + 3] : in[t]);         // shfl_down(v, 3, 4)
    want_d.push_back(din[base + 31 - lane]);
  }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
  EXPECT_TRUE(bitwise_equal(dout.download(), want_d));
}

}  // namespace
}  // namespace corpus
