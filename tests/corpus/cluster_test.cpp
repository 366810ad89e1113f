// Thread-block clusters (kernels/cluster.cu): a cluster reduction through distributed shared
// memory against a CPU sum, the %cluster_* registers of a 2-D cluster launch, mapa addresses,
// remote loads and reductions in a ring, the undefined access to an exited CTA's shared memory,
// and griddepcontrol. Expected values follow the PTX ISA's definitions and the H100's
// shared::cluster addresses (docs/exec.md, "Clusters": rank r tagged r + 1 in bits 24 and up).
#include "corpus.hpp"

namespace corpus {
namespace {

std::vector<unsigned> inputs(std::size_t n) {
  std::vector<unsigned> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<unsigned>((i * 2654435761u) >> 20);
  return h;
}

std::vector<unsigned> cluster_sums(const std::vector<unsigned>& h, std::size_t clusters) {
  const std::size_t per = h.size() / clusters;
  std::vector<unsigned> want(clusters, 0);
  for (std::size_t c = 0; c < clusters; ++c)
    for (std::size_t i = 0; i < per; ++i) want[c] += h[c * per + i];
  return want;
}

TEST(Cluster, ReductionThroughDistributedSharedMemory) {
  constexpr std::size_t kClusters = 3;
  const std::vector<unsigned> h = inputs(kClusters * 4 * 256 * 4);
  Device device;
  Module module = load(device, "cluster");
  Buffer<unsigned> in(device, h);
  Buffer<unsigned> out(device, kClusters);
  out.fill_bytes(0);
  // __cluster_dims__(4, 1, 1): a plain launch runs in clusters of 4.
  launch(device, module, "_Z14cluster_reducePKjPj", Dim3{kClusters * 4, 1, 1}, Dim3{256, 1, 1}, in.ptr(), out.ptr());
  EXPECT_EQ(out.download(), cluster_sums(h, kClusters));
}

TEST(Cluster, ReductionWithRemoteAtomicsAndALaunchAttribute) {
  constexpr std::size_t kClusters = 2;
  const std::vector<unsigned> h = inputs(kClusters * 4 * 256 * 4);
  Device device;
  Module module = load(device, "cluster");
  Buffer<unsigned> in(device, h);
  Buffer<unsigned> out(device, kClusters);
  out.fill_bytes(0);
  const DevicePtr pin = in.ptr(), pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pin), warpscope::arg(pout)};
  warpscope::LaunchOptions options;
  options.cluster = Dim3{4, 1, 1};
  options.explicit_cluster = true;
  device.launch(module, "_Z21cluster_reduce_atomicPKjPj", Dim3{kClusters * 4, 1, 1}, Dim3{256, 1, 1}, args, options);
  EXPECT_EQ(out.download(), cluster_sums(h, kClusters));
}

std::vector<unsigned> sregs(Device& device, const Module& module, Dim3 grid, const warpscope::LaunchOptions& options) {
  const std::size_t blocks = std::size_t{grid.x} * grid.y * grid.z;
  Buffer<unsigned> out(device, blocks * 13);
  out.fill_bytes(0xff);
  const DevicePtr pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pout)};
  device.launch(module, "_Z13cluster_sregsPj", grid, Dim3{32, 1, 1}, args, options);
  return out.download();
}

TEST(Cluster, SpecialRegistersOfATwoDimensionalCluster) {
  Device device;
  Module module = load(device, "cluster");
  warpscope::LaunchOptions options;
  options.cluster = Dim3{2, 2, 1};
  options.explicit_cluster = true;
  const std::vector<unsigned> got = sregs(device, module, Dim3{4, 4, 1}, options);
  std::vector<unsigned> want;
  for (unsigned by = 0; by < 4; ++by)
    for (unsigned bx = 0; bx < 4; ++bx) {
      const unsigned v[13] = {bx % 2, by % 2, 2, 2, bx / 2, by / 2, 2, 2, bx % 2 + 2 * (by % 2), 4, 1, 0, 1};
      want.insert(want.end(), v, v + 13);
    }
  EXPECT_EQ(got, want);
}

TEST(Cluster, WithoutAClusterEveryBlockIsAClusterOfOne) {
  Device device;
  Module module = load(device, "cluster");
  const std::vector<unsigned> got = sregs(device, module, Dim3{3, 2, 1}, warpscope::LaunchOptions{});
  std::vector<unsigned> want;
  for (unsigned by = 0; by < 2; ++by)
    for (unsigned bx = 0; bx < 3; ++bx) {
      const unsigned v[13] = {0, 0, 1, 1, bx, by, 3, 2, 0, 1, 0, 0, 1};
      want.insert(want.end(), v, v + 13);
    }
  EXPECT_EQ(got, want);
}

TEST(Cluster, GridNotAMultipleOfTheClusterIsRefused) {
  Device device;
  Module module = load(device, "cluster");
  Buffer<unsigned> out(device, 64 * 13);
  const DevicePtr pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pout)};
  warpscope::LaunchOptions options;
  options.cluster = Dim3{2, 1, 1};
  try {
    device.launch(module, "_Z13cluster_sregsPj", Dim3{3, 1, 1}, Dim3{32, 1, 1}, args, options);
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("must be a multiple of the cluster"), std::string::npos) << e.what();
  }
}

TEST(Cluster, MapaLoadsAndReductionsAroundARing) {
  Device device;
  Module module = load(device, "cluster");
  Buffer<unsigned> out(device, 4 * 64 + 4 * 32);
  out.fill_bytes(0);
  const DevicePtr pout = out.ptr();
  const warpscope::KernelArg args[] = {warpscope::arg(pout)};
  warpscope::LaunchOptions options;
  options.cluster = Dim3{4, 1, 1};
  options.explicit_cluster = true;
  device.launch(module, "_Z12cluster_ringPj", Dim3{4, 1, 1}, Dim3{32, 1, 1}, args, options);
  const std::vector<unsigned> got = out.download();
  for (unsigned r = 0; r < 4; ++r) {
    const unsigned next = (r + 1) % 4;
    for (unsigned t = 0; t < 32; ++t) {
      EXPECT_EQ(got[r * 64 + t], next * 100 + t) << "rank " << r << " thread " << t;
      const unsigned remote = got[r * 64 + 32 + t];
      EXPECT_EQ(remote >> 24, next + 1);  // warpscope's tag: rank + 1 (docs/exec.md, "Clusters")
      EXPECT_EQ((remote & 0xffffffu) - (got[r * 64 + 32] & 0xffffffu), 4 * t);
      // The previous rank added 1000 to each word of this rank's array.
      EXPECT_EQ(got[4 * 64 + r * 32 + t], r * 100 + t + 1000);
    }
  }
}

TEST(Cluster, ReadingTheSharedMemoryOfAnExitedBlockIsReported) {
  Device device;
  Module module = load(device, "cluster");
  Buffer<unsigned> out(device, 32);
  const DevicePtr pout = out.ptr();
  const int spins = 100000;
  const warpscope::KernelArg args[] = {warpscope::arg(pout), warpscope::arg(spins)};
  warpscope::LaunchOptions options;
  options.cluster = Dim3{2, 1, 1};
  try {
    device.launch(module, "_Z18cluster_exit_earlyPji", Dim3{2, 1, 1}, Dim3{32, 1, 1}, args, options);
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUndefined);
    const std::string m = e.what();
    EXPECT_NE(m.find("shared memory of cluster rank 0"), std::string::npos) << m;
    EXPECT_NE(m.find("has exited"), std::string::npos) << m;
    EXPECT_NE(m.find("cluster.cu:"), std::string::npos) << m;
  }
}

TEST(Cluster, GriddepcontrolWaitReturnsAtOnce) {
  Device device;
  Module module = load(device, "cluster");
  std::vector<unsigned> h(64);
  for (unsigned i = 0; i < 64; ++i) h[i] = i + 100;
  Buffer<unsigned> in(device, h);
  Buffer<unsigned> out(device, 64);
  launch(device, module, "_Z7griddepPKjPj", Dim3{1, 1, 1}, Dim3{64, 1, 1}, in.ptr(), out.ptr());
  std::vector<unsigned> want(64);
  for (unsigned i = 0; i < 64; ++i) want[i] = (i + 100) * 2;
  EXPECT_EQ(out.download(), want);
}

}  // namespace
}  // namespace corpus
