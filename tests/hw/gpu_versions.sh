#!/usr/bin/env bash
# Prints the GPU, driver, nvcc and Nsight Compute versions a capture ran with (for the README of
# the data it captured):  bash tests/hw/gpu_versions.sh > OUT/versions.txt
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
nvcc --version 2>&1 | tail -n 2
ncu --version 2>&1 | tail -n 1
