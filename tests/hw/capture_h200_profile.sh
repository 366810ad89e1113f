#!/usr/bin/env bash
# The h200 profile's ground truth (issue 34), on the team's H200 machine:
#   bash tests/hw/capture_h200_profile.sh OUTDIR
# OUTDIR gets
#   timing/             tests/hw/capture_timing.sh's files (microbench: latencies, issue rates,
#                       L2 and DRAM bandwidths, launch overhead; the N-body and the corpus under ncu)
#   latency_dram.txt    tests/hw/timing/latency_dram.cu (a 1 GiB pointer chase, 1 KB apart)
#   attributes.txt      nvidia-smi's view and the runtime's device attributes that profiles state
#   cluster_sched/      tests/hw/cluster_sched_probe.cu's output (which SMs share clusters: the GPCs)
set -uo pipefail
out=${1:?usage: capture_h200_profile.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/cluster_sched"
b=$(mktemp -d)
nvidia-smi -q > "$out/attributes.txt" 2>&1
cat > "$b/attrs.cu" <<'CU'
#include <cstdio>
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  std::printf("name %s\ntotalGlobalMem %zu\nmemGetInfo_total %zu\nl2CacheSize %d\npersistingL2CacheMaxSize %d\n"
              "multiProcessorCount %d\nsharedMemPerMultiprocessor %zu\nsharedMemPerBlockOptin %zu\n",
              p.name, p.totalGlobalMem, total_b, p.l2CacheSize, p.persistingL2CacheMaxSize, p.multiProcessorCount,
              p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin);
  const int attrs[] = {13, 36, 37, 38, 81, 82};  // clock, memory clock, bus width, L2, smem/SM, regs/SM
  for (int a : attrs) {
    int v = 0;
    cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0);
    std::printf("attribute %d %d\n", a, v);
  }
  return 0;
}
CU
nvcc -arch=sm_90 -o "$b/attrs" "$b/attrs.cu" && "$b/attrs" >> "$out/attributes.txt" 2>&1
nvcc -arch=sm_90 -O3 -o "$b/latency_dram" "$here/timing/latency_dram.cu" && "$b/latency_dram" > "$out/latency_dram.txt" 2>&1
nvcc -arch=sm_90 -o "$b/sched" "$here/cluster_sched_probe.cu" && timeout 200 "$b/sched" > "$out/cluster_sched/run.txt" 2>&1
echo "rc=$?" >> "$out/cluster_sched/run.txt"
bash "$here/capture_timing.sh" "$out/timing"
rm -rf "$b"
