// The other PTX module driver_memory.cpp links (driver_link_a.cu calls this).
__device__ int twice_plus_one(int v) { return 2 * v + 1; }
