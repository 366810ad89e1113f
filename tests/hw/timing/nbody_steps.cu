// Times one step of each examples/nbody.cu variant (the same kernels: the example is included)
// with cudaEvents, without the CPU check (which takes minutes at 131072 bodies).
//   nvcc -cudart shared -lineinfo -arch=sm_90 -I examples -o nbody_steps tests/hw/timing/nbody_steps.cu
//   ./nbody_steps [N] [steps] [threads per block]   (defaults 131072 5 256; the seeds use 1024)
// Prints `variant ms_per_step min_ms max_ms` after one warm-up step.
#define main nbody_example_main
#include "nbody.cu"
#undef main

template <class coord>
static void time_variant(const char* name, int n, int steps, bool shared, int tpb) {
  std::vector<coord> h(n);
  Lcg rng(12345);
  for (int i = 0; i < n; ++i) {
    std::memset(&h[i], 0, sizeof(coord));
    h[i].x = rng.next(); h[i].y = rng.next(); h[i].z = rng.next();
  }
  coord* d[4];
  for (auto& p : d) CHECK(cudaMalloc((void**)&p, sizeof(coord) * n));
  CHECK(cudaMemcpy(d[0], h.data(), sizeof(coord) * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d[2], h.data(), sizeof(coord) * n, cudaMemcpyHostToDevice));
  auto step = [&] {
    if (shared) {
      integrate_shared<<<n / tpb, tpb, tpb * sizeof(float4)>>>((float4*)d[1], (float4*)d[3], (float4*)d[0],
                                                                (float4*)d[2], n, dt);
    } else {
      integrate<coord><<<n / tpb, tpb>>>(d[1], d[3], d[0], d[2], n, dt);
    }
  };
  step();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  double sum = 0, lo = 1e30, hi = 0;
  for (int s = 0; s < steps; ++s) {
    CHECK(cudaEventRecord(a));
    step();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    sum += ms;
    lo = ms < lo ? ms : lo;
    hi = ms > hi ? ms : hi;
  }
  std::printf("%s %.3f %.3f %.3f\n", name, sum / steps, lo, hi);
  for (auto& p : d) CHECK(cudaFree(p));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 131072;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 5;
  const int tpb = argc > 3 ? std::atoi(argv[3]) : 256;
  if (n <= 0 || tpb <= 0 || tpb > 1024 || n % tpb != 0) {
    std::fprintf(stderr, "N must be a positive multiple of the block size (1..1024)\n");
    return 2;
  }
  std::printf("# N = %d, %d threads per block, %d timed steps after one warm-up; ms per step: mean min max\n", n, tpb,
              steps);
  time_variant<body12>("struct12", n, steps, false, tpb);
  time_variant<float3>("float3", n, steps, false, tpb);
  time_variant<body16>("padded16", n, steps, false, tpb);
  time_variant<float4>("float4", n, steps, false, tpb);
  time_variant<float4>("shared", n, steps, true, tpb);
  return 0;
}
