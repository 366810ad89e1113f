# Cluster scheduling on an H100 (issue 18): run in a folder holding tests/hw/cluster_sched_probe.cu
# as sched.cu with $OUT set; see tests/hw/data/h100/cluster_sched/README.md.
set -x
nvcc -arch=sm_90 -o sched sched.cu
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/r/v.txt 2>&1
(nvcc --version | tail -2; ncu --version | tail -1) >> $OUT/r/v.txt 2>&1
timeout 200 ./sched > $OUT/r/run.txt 2> $OUT/r/err.txt
echo rc=$? >> $OUT/r/err.txt
nvidia-smi -q | grep -i -A3 -E "MIG|Product Name" >> $OUT/r/v.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
