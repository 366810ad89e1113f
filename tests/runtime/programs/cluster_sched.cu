// Thread-block clusters on the GPCs (issue 18): cudaOccupancyMaxActiveClusters,
// cudaOccupancyMaxPotentialClusterSize and the launch errors, each expected value as the H100
// answered it (tests/hw/data/h100/cluster_sched/queries.txt), and the JSON report's cluster
// occupancy (checked by runtime_test.cpp).
#include <cstdio>

#include "expect.cuh"

__global__ void kn(int* o) {  // non-portable cluster sizes allowed (set in main)
  if (o != nullptr && threadIdx.x == 0) o[blockIdx.x] = static_cast<int>(blockIdx.x);
}
__global__ void kp(int* o) {  // portable sizes only
  if (o != nullptr && threadIdx.x == 0) o[blockIdx.x] = 1;
}
__global__ void __cluster_dims__(2, 1, 1) kcd(int* o) {
  if (o != nullptr && threadIdx.x == 0) o[blockIdx.x] = 2;
}

static cudaLaunchAttribute attrs[2];
static cudaLaunchConfig_t cfg(dim3 grid, int block, int smem, dim3 cluster, bool with_cluster = true, bool coop = false) {
  cudaLaunchConfig_t c{};
  c.gridDim = grid;
  c.blockDim = dim3(block, 1, 1);
  c.dynamicSmemBytes = smem;
  int n = 0;
  if (with_cluster) {
    attrs[n].id = cudaLaunchAttributeClusterDimension;
    attrs[n].val.clusterDim.x = cluster.x;
    attrs[n].val.clusterDim.y = cluster.y;
    attrs[n].val.clusterDim.z = cluster.z;
    ++n;
  }
  if (coop) {
    attrs[n].id = cudaLaunchAttributeCooperative;
    attrs[n].val.cooperative = 1;
    ++n;
  }
  c.attrs = attrs;
  c.numAttrs = n;
  return c;
}

static int active(const void* f, dim3 grid, int block, int smem, dim3 cluster, cudaError_t* e = nullptr) {
  int n = -1;
  cudaLaunchConfig_t c = cfg(grid, block, smem, cluster);
  cudaError_t r = cudaOccupancyMaxActiveClusters(&n, f, &c);
  cudaGetLastError();
  if (e != nullptr) *e = r;
  return n;
}

static cudaError_t launch(void (*f)(int*), cudaLaunchConfig_t c) {
  cudaError_t e = cudaLaunchKernelEx(&c, f, static_cast<int*>(nullptr));
  cudaError_t last = cudaGetLastError();
  if (last != e) return cudaErrorUnknown;  // the launch's error is also the last error, not sticky
  if (cudaDeviceSynchronize() != cudaSuccess) return cudaErrorUnknown;
  return e;
}

int main() {
  const int maxsm = 232448;
  EXPECT_ERR("attr_kn_smem", cudaFuncSetAttribute(kn, cudaFuncAttributeMaxDynamicSharedMemorySize, maxsm), cudaSuccess);
  EXPECT_ERR("attr_kn_np", cudaFuncSetAttribute(kn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), cudaSuccess);
  EXPECT_ERR("attr_kp_smem", cudaFuncSetAttribute(kp, cudaFuncAttributeMaxDynamicSharedMemorySize, maxsm), cudaSuccess);

  // MaxActiveClusters (queries.txt A lines: same answers for kn's few registers as for rec's 18).
  EXPECT("active_128_0_1", active((void*)kn, 64, 128, 0, 1) == 1056);
  EXPECT("active_128_0_2", active((void*)kn, 128, 128, 0, 2) == 528);
  EXPECT("active_128_0_3", active((void*)kn, 192, 128, 0, 3) == 327);
  EXPECT("active_128_0_16", active((void*)kn, 1024, 128, 0, 16) == 58);
  EXPECT("active_384_0_5", active((void*)kn, 320, 384, 0, 5) == 124);
  EXPECT("active_512_0_9", active((void*)kn, 576, 512, 0, 9) == 51);
  EXPECT("active_1024_0_7", active((void*)kn, 448, 1024, 0, 7) == 32);
  EXPECT("active_128_200k_4", active((void*)kn, 256, 128, 204800, 4) == 30);
  EXPECT("active_128_200k_16", active((void*)kn, 1024, 128, 204800, 16) == 7);
  EXPECT("active_128_100k_16", active((void*)kn, 1024, 128, 102400, 16) == 14);
  EXPECT("active_128_200k_9", active((void*)kn, 576, 128, 204800, 9) == 9);
  EXPECT("active_2x2", active((void*)kn, dim3(8, 4, 1), 128, 0, dim3(2, 2, 1)) == 248);
  EXPECT("active_3x3", active((void*)kn, dim3(12, 6, 1), 128, 0, dim3(3, 3, 1)) == 102);
  EXPECT("active_17", active((void*)kn, 68, 128, 0, 17) == 16);
  EXPECT("active_32", active((void*)kn, 128, 128, 0, 32) == 0);
  EXPECT("active_kp_8", active((void*)kp, 32, 128, 0, 8) == 124);
  cudaError_t e = cudaSuccess;
  active((void*)kp, 36, 128, 0, 9, &e);
  EXPECT("active_kp_9_error", e == cudaErrorInvalidClusterSize);
  active((void*)kn, 1, 128, 0, 2, &e);
  EXPECT("active_grid1_error", e == cudaErrorInvalidClusterSize);
  active((void*)kn, 64, 128, 0, dim3(0, 1, 1), &e);
  EXPECT("active_dim0_error", e == cudaErrorInvalidClusterSize);
  {
    int n = -1;
    cudaLaunchConfig_t c = cfg(64, 128, 0, 1, false);
    EXPECT_ERR("active_no_cluster", cudaOccupancyMaxActiveClusters(&n, (void*)kn, &c), cudaSuccess);
    EXPECT("active_no_cluster_0", n == 0);
    EXPECT_ERR("active_cluster_dims", cudaOccupancyMaxActiveClusters(&n, (void*)kcd, &c), cudaSuccess);
    EXPECT("active_cluster_dims_528", n == 528);
    // MaxPotentialClusterSize: 16 / 8 whatever the block and shared memory.
    int p = -1;
    EXPECT_ERR("potential_kn", cudaOccupancyMaxPotentialClusterSize(&p, (void*)kn, &c), cudaSuccess);
    EXPECT("potential_kn_16", p == 16);
    c = cfg(64, 1024, maxsm, 1, false);
    EXPECT_ERR("potential_kn_big", cudaOccupancyMaxPotentialClusterSize(&p, (void*)kn, &c), cudaSuccess);
    EXPECT("potential_kn_big_16", p == 16);
    EXPECT_ERR("potential_kp", cudaOccupancyMaxPotentialClusterSize(&p, (void*)kp, &c), cudaSuccess);
    EXPECT("potential_kp_8", p == 8);
  }

  // Launch errors (queries.txt E lines).
  EXPECT_ERR("launch_ok", launch(kn, cfg(4, 32, 0, 2)), cudaSuccess);
  EXPECT_ERR("launch_grid3", launch(kn, cfg(3, 32, 0, 2)), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_grid4x3", launch(kn, cfg(dim3(4, 3, 1), 32, 0, dim3(2, 2, 1))), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kp_8", launch(kp, cfg(16, 32, 0, 8)), cudaSuccess);
  EXPECT_ERR("launch_kp_9", launch(kp, cfg(18, 32, 0, 9)), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kp_4x4", launch(kp, cfg(dim3(4, 4, 1), 32, 0, dim3(4, 4, 1))), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kp_4x2", launch(kp, cfg(dim3(4, 4, 1), 32, 0, dim3(4, 2, 1))), cudaSuccess);
  EXPECT_ERR("launch_kn_16", launch(kn, cfg(32, 32, 0, 16)), cudaSuccess);
  EXPECT_ERR("launch_kn_17", launch(kn, cfg(34, 32, 0, 17)), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kn_4x4x2", launch(kn, cfg(dim3(4, 4, 2), 32, 0, dim3(4, 4, 2))), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kn_smem_max", launch(kn, cfg(32, 1024, maxsm, 16)), cudaSuccess);
  EXPECT_ERR("launch_kn_smem_over", launch(kn, cfg(32, 32, maxsm + 1, 16)), cudaErrorInvalidValue);
  EXPECT_ERR("launch_dim0", launch(kn, cfg(4, 32, 0, dim3(0, 1, 1))), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_dim000", launch(kn, cfg(4, 32, 0, dim3(0, 0, 0))), cudaSuccess);
  EXPECT_ERR("launch_coop_cluster", launch(kn, cfg(4, 32, 0, 2, true, true)), cudaSuccess);
  EXPECT_ERR("launch_kcd_none", launch(kcd, cfg(4, 32, 0, 1, false)), cudaSuccess);
  EXPECT_ERR("launch_kcd_grid3", launch(kcd, cfg(3, 32, 0, 1, false)), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kcd_2", launch(kcd, cfg(4, 32, 0, 2)), cudaSuccess);
  EXPECT_ERR("launch_kcd_4", launch(kcd, cfg(4, 32, 0, 4)), cudaErrorInvalidClusterSize);
  EXPECT_ERR("launch_kcd_1", launch(kcd, cfg(4, 32, 0, 1)), cudaErrorInvalidClusterSize);
  kcd<<<3, 32>>>(nullptr);
  EXPECT_ERR("launch_kcd_chevron_grid3", cudaGetLastError(), cudaErrorInvalidClusterSize);

  // A launch whose report carries the cluster occupancy (runtime_test.cpp reads it): clusters of 4
  // blocks of 128 threads with 200 KB of shared memory each, 30 resident at once.
  int* out = nullptr;
  cudaMalloc(&out, 360 * sizeof(int));
  {
    cudaLaunchConfig_t c = cfg(360, 128, 204800, 4);
    EXPECT_ERR("launch_report", cudaLaunchKernelEx(&c, kn, out), cudaSuccess);
    int h[360];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT("launch_report_result", h[0] == 0 && h[359] == 359);
  }
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
