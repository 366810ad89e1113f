// mbarriers of other CTAs of a cluster and bulk copies into them (kernels/cluster_mbarrier.cu):
// remote arrive-on, expect-tx and complete-tx through .shared::cluster addresses, a CTA waiting on
// its own mbarrier for a peer's arrival, and the deadlock when that arrival never comes. Expected
// values follow the PTX ISA's definitions (mbarrier, 9.7.13.15; mapa) and are computed here.
#include "corpus.hpp"

namespace corpus {
namespace {

std::vector<unsigned> ring_inputs(std::size_t n) {
  std::vector<unsigned> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<unsigned>((i * 2654435761u) >> 12);
  return h;
}

TEST(ClusterMbarrier, PeersArriveOnEachOthersMbarriersAroundARing) {
  constexpr unsigned kClusters = 2, kRounds = 3;
  const std::vector<unsigned> h = ring_inputs(kClusters * 4 * 64);
  Device device;
  Module module = load(device, "cluster_mbarrier");
  Buffer<unsigned> in(device, h);
  Buffer<unsigned> out(device, kClusters * 4 * kRounds * 64);
  out.fill_bytes(0xff);
  const DevicePtr pin = in.ptr(), pout = out.ptr();
  const int rounds = kRounds;
  const warpscope::KernelArg args[] = {warpscope::arg(pin), warpscope::arg(pout), warpscope::arg(rounds)};
  device.launch(module, "_Z11ring_arrivePKjPji", Dim3{kClusters * 4, 1, 1}, Dim3{64, 1, 1}, args, {});
  const std::vector<unsigned> got = out.download();
  for (unsigned b = 0; b < kClusters * 4; ++b) {
    const unsigned me = b % 4, first = b - me, pred = (me + 3) % 4;
    for (unsigned k = 0; k < kRounds; ++k)
      for (unsigned t = 0; t < 64; ++t)
        ASSERT_EQ(got[(b * kRounds + k) * 64 + t], h[(first + pred) * 64 + t] * 3 + pred + k)
            << "block " << b << " round " << k << " thread " << t;
  }
}

TEST(ClusterMbarrier, AWaitForAnArrivalThatNeverComesIsADeadlock) {
  Device device;
  Module module = load(device, "cluster_mbarrier");
  try {
    device.launch(module, "_Z12lost_arrivalv", Dim3{2, 1, 1}, Dim3{32, 1, 1}, {}, {});
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kDeadlock) << e.what();
    EXPECT_NE(std::string(e.what()).find("lost_arrival"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cluster_mbarrier.cu:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace corpus

namespace corpus {
namespace {

/// What bulk_to_cluster leaves in each block's buffer: 128 source words at word 64 in the blocks
/// of `targets` (their cluster's source starts at word 32 * its first block), the fill elsewhere.
std::vector<unsigned> bulk_expected(const std::vector<unsigned>& src, unsigned clusters, unsigned targets) {
  std::vector<unsigned> want(clusters * 4 * 256);
  for (unsigned b = 0; b < clusters * 4; ++b)
    for (unsigned i = 0; i < 256; ++i) {
      const bool hit = ((targets >> (b % 4)) & 1) != 0 && i >= 64 && i < 192;
      want[b * 256 + i] = hit ? src[32 * (b - b % 4) + (i - 64)] : 0xC0DE0000u + i;
    }
  return want;
}

std::vector<unsigned> run_bulk(Device& device, const Module& module, const std::vector<unsigned>& src, unsigned clusters,
                               unsigned mask, int peer) {
  Buffer<unsigned> in(device, src);
  Buffer<unsigned> out(device, clusters * 4 * 256);
  const DevicePtr pin = in.ptr(), pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pin), warpscope::arg(pout), warpscope::arg(mask), warpscope::arg(peer)};
  device.launch(module, "_Z15bulk_to_clusterPKjPjji", Dim3{clusters * 4, 1, 1}, Dim3{64, 1, 1}, args, {});
  return out.download();
}

TEST(ClusterMbarrier, BulkCopiesIntoAPeerAndMulticastAsTheCpuReference) {
  constexpr unsigned kClusters = 2;
  std::vector<unsigned> src(32 * 4 * kClusters + 128);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned>(i * 7919u + 13u);
  Device device;
  Module module = load(device, "cluster_mbarrier");
  for (int peer : {1, 2, 3, 0}) {
    SCOPED_TRACE("peer " + std::to_string(peer));
    EXPECT_EQ(run_bulk(device, module, src, kClusters, 0, peer), bulk_expected(src, kClusters, 1u << peer));
  }
  for (unsigned mask : {0xfu, 0xbu, 0x6u, 0x8u}) {
    SCOPED_TRACE("mask " + std::to_string(mask));
    EXPECT_EQ(run_bulk(device, module, src, kClusters, mask, -1), bulk_expected(src, kClusters, mask));
  }
}

TEST(ClusterMbarrier, ACtaMaskBeyondTheClusterIsReported) {
  std::vector<unsigned> src(32 * 4 + 128, 1u);
  Device device;
  Module module = load(device, "cluster_mbarrier");
  try {
    run_bulk(device, module, src, 1, 0x13u, -1);
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUndefined) << e.what();
    EXPECT_NE(std::string(e.what()).find("ctaMask 0x13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cluster_mbarrier.cu:"), std::string::npos) << e.what();
  }
}


// Bulk reductions and copies from shared memory into rank 0's (PTX ISA 9.7.9.25.4: each element of
// the destination becomes dst + src, the .u32 sum wrapping): rank 0 holds the cluster's sum of
// every word and the three other ranks' words.
TEST(ClusterMbarrier, BulkReductionsIntoRankZeroSumTheCluster) {
  constexpr unsigned kClusters = 2;
  std::vector<unsigned> h(kClusters * 4 * 64);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<unsigned>(i * 2654435761u);  // wraps when summed
  Device device;
  Module module = load(device, "cluster_mbarrier");
  Buffer<unsigned> in(device, h);
  Buffer<unsigned> out(device, h.size());
  out.fill_bytes(0xff);
  const DevicePtr pin = in.ptr(), pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pin), warpscope::arg(pout)};
  device.launch(module, "_Z20bulk_reduce_to_rank0PKjPj", Dim3{kClusters * 4, 1, 1}, Dim3{64, 1, 1}, args, {});
  const std::vector<unsigned> got = out.download();
  for (unsigned c = 0; c < kClusters; ++c)
    for (unsigned t = 0; t < 64; ++t) {
      unsigned sum = 0;
      for (unsigned r = 0; r < 4; ++r) sum += h[(c * 4 + r) * 64 + t];
      ASSERT_EQ(got[c * 4 * 64 + t], sum) << "cluster " << c << " word " << t;
      for (unsigned r = 1; r < 4; ++r) ASSERT_EQ(got[(c * 4 + r) * 64 + t], h[(c * 4 + r) * 64 + t]) << "rank " << r;
    }
}

TEST(ClusterMbarrier, ABulkCopyIntoAPeerOfAnOddSizeIsAnError) {
  Device device;
  Module module = load(device, "cluster_mbarrier");
  try {
    device.launch(module, "_Z21bulk_to_peer_odd_sizev", Dim3{2, 1, 1}, Dim3{32, 1, 1}, {}, {});
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUndefined) << e.what();
    EXPECT_NE(std::string(e.what()).find("cp.async.bulk of 24 bytes (a multiple of 16 is required)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cluster_mbarrier.cu:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace corpus
