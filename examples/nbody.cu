// The seeds' N-body integrator (seed 003, "3адача N-тел"): one thread per body sums the forces
// of all bodies, then moves its body. Five layouts of a body's coordinates, as the slides time
// them on a Kepler-era GPU:
//   struct12  struct {float x, y, z;}              (12 bytes: 3 separate 4-byte loads)
//   float3    float3                               (12 bytes)
//   padded16  struct {float x, y, z, padding;}     (16 bytes, still 4-byte loads)
//   float4    float4                               (16 bytes: one 16-byte load)
//   shared    float4, bodies staged through shared-memory tiles of the block size
// Usage: nbody [variant|all] [N] [steps] [block]  (all 2048 2 256; the slides: N = 128*1024, 1024)
// Checks the GPU result against a CPU integration (of ~2048 bodies when steps = 1) and prints OK or FAIL.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"

const float eps = 0.0001f;
const float dt = 0.01f;

struct body12 {
  float x, y, z;
};
struct body16 {
  float x, y, z, padding;
};

template <class coord>
__global__ void integrate(coord* new_p, coord* new_v, coord* p, coord* v, int n, float dt) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  // Each thread computes the force acting on body `index`.
  coord body_pos = p[index];
  coord body_vel = v[index];
  coord f;
  f.x = 0;
  f.y = 0;
  f.z = 0;
  for (int i = 0; i < n; i++) {
    coord pi = p[i];
    coord r;
    // Vector from p[i] to body_pos.
    r.x = pi.x - body_pos.x;
    r.y = pi.y - body_pos.y;
    r.z = pi.z - body_pos.z;
    float invDist = 1.0f / sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + eps * eps);
    float s = invDist * invDist * invDist;
    // Add the force of body i.
    f.x += r.x * s;
    f.y += r.y * s;
    f.z += r.z * s;
  }
  // Correct velocity and position.
  body_vel.x += f.x * dt;
  body_vel.y += f.y * dt;
  body_vel.z += f.z * dt;
  body_pos.x += body_vel.x * dt;
  body_pos.y += body_vel.y * dt;
  body_pos.z += body_vel.z * dt;
  new_p[index] = body_pos;
  new_v[index] = body_vel;
}

// float4 with shared-memory tiles: the block stages block_size bodies at a time.
// Assumes n % blockDim.x == 0.
__global__ void integrate_shared(float4* new_p, float4* new_v, float4* p, float4* v, int n, float dt) {
  extern __shared__ float4 sp[];
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  float4 body_pos = p[index];
  float4 body_vel = v[index];
  float4 f = make_float4(0, 0, 0, 0);
  for (int ind = 0; ind < n; ind += blockDim.x) {
    sp[threadIdx.x] = p[ind + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < blockDim.x; i++) {
      float4 r;
      r.x = sp[i].x - body_pos.x;
      r.y = sp[i].y - body_pos.y;
      r.z = sp[i].z - body_pos.z;
      float invDist = 1.0f / sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + eps * eps);
      float s = invDist * invDist * invDist;
      f.x += r.x * s;
      f.y += r.y * s;
      f.z += r.z * s;
    }
    __syncthreads();
  }
  body_vel.x += f.x * dt;
  body_vel.y += f.y * dt;
  body_vel.z += f.z * dt;
  body_pos.x += body_vel.x * dt;
  body_pos.y += body_vel.y * dt;
  body_pos.z += body_vel.z * dt;
  new_p[index] = body_pos;
  new_v[index] = body_vel;
}

struct Vec {
  double x, y, z;
};

// The same integration on the CPU, in double precision, of every `stride`-th body (stride 1 when
// steps > 1: later steps need every body).
static void reference(std::vector<Vec>& p, std::vector<Vec>& v, int steps, int stride) {
  const int n = static_cast<int>(p.size());
  for (int s = 0; s < steps; ++s) {
    std::vector<Vec> np(n), nv(n);
    for (int b = 0; b < n; b += stride) {
      Vec f{0, 0, 0};
      for (int i = 0; i < n; ++i) {
        const double rx = p[i].x - p[b].x, ry = p[i].y - p[b].y, rz = p[i].z - p[b].z;
        const double inv = 1.0 / std::sqrt(rx * rx + ry * ry + rz * rz + double(eps) * eps);
        const double k = inv * inv * inv;
        f.x += rx * k;
        f.y += ry * k;
        f.z += rz * k;
      }
      nv[b] = {v[b].x + f.x * dt, v[b].y + f.y * dt, v[b].z + f.z * dt};
      np[b] = {p[b].x + nv[b].x * dt, p[b].y + nv[b].y * dt, p[b].z + nv[b].z * dt};
    }
    p = np;
    v = nv;
  }
}

template <class coord>
static bool run(const char* variant, int n, int steps, bool shared, int threads_per_block) {
  Lcg rng(12345);
  std::vector<coord> p(n), v(n);
  std::vector<Vec> rp(n), rv(n);
  for (int i = 0; i < n; ++i) {
    std::memset(&p[i], 0, sizeof(coord));
    std::memset(&v[i], 0, sizeof(coord));
    p[i].x = rng.next(); p[i].y = rng.next(); p[i].z = rng.next();
    v[i].x = 0.1f * rng.next(); v[i].y = 0.1f * rng.next(); v[i].z = 0.1f * rng.next();
    rp[i] = {p[i].x, p[i].y, p[i].z};
    rv[i] = {v[i].x, v[i].y, v[i].z};
  }
  const size_t size = sizeof(coord) * n;
  coord* d_p[2] = {nullptr, nullptr};
  coord* d_v[2] = {nullptr, nullptr};
  double tmem = -wtime();
  CHECK(cudaMalloc((void**)&d_p[0], size));
  CHECK(cudaMalloc((void**)&d_p[1], size));
  CHECK(cudaMalloc((void**)&d_v[0], size));
  CHECK(cudaMalloc((void**)&d_v[1], size));
  CHECK(cudaMemcpy(d_p[0], p.data(), size, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_v[0], v.data(), size, cudaMemcpyHostToDevice));
  tmem += wtime();

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  double tgpu = -wtime();
  dim3 block(threads_per_block);
  dim3 grid((n + threads_per_block - 1) / threads_per_block);
  int index = 0;
  CHECK(cudaEventRecord(start));
  for (int i = 0; i < steps; i++, index ^= 1) {
    if (shared) {
      integrate_shared<<<grid, block, threads_per_block * sizeof(float4)>>>(
          (float4*)d_p[index ^ 1], (float4*)d_v[index ^ 1], (float4*)d_p[index], (float4*)d_v[index], n, dt);
    } else {
      integrate<coord><<<grid, block>>>(d_p[index ^ 1], d_v[index ^ 1], d_p[index], d_v[index], n, dt);
    }
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaDeviceSynchronize());
  tgpu += wtime();
  float event_ms = 0;
  CHECK(cudaEventElapsedTime(&event_ms, start, stop));

  tmem -= wtime();
  CHECK(cudaMemcpy(p.data(), d_p[index], size, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v.data(), d_v[index], size, cudaMemcpyDeviceToHost));
  tmem += wtime();

  const int stride = steps == 1 && n > 2048 ? n / 2048 : 1;
  reference(rp, rv, steps, stride);
  double worst = 0;
  for (int i = 0; i < n; i += stride) {
    const double e = std::fabs(p[i].x - rp[i].x) + std::fabs(p[i].y - rp[i].y) + std::fabs(p[i].z - rp[i].z);
    worst = e > worst ? e : worst;
  }
  const bool ok = worst < 1e-3;
  std::printf("nbody %-8s sizeof(coord) = %2d  N = %d  steps = %d: %s\n", variant, (int)sizeof(coord), n, steps,
              ok ? "OK" : "FAIL");
  if (!ok) std::printf("  largest position error %g\n", worst);
  std::printf("[timing] %s GPU version (sec.): %.6f\n", variant, tgpu);
  std::printf("[timing] %s Memory ops. (sec.): %.6f\n", variant, tmem);
  std::printf("[timing] %s  Total time (sec.): %.6f\n", variant, tgpu + tmem);
  std::printf("[timing] %s cudaEventElapsedTime (ms): %.3f\n", variant, event_ms);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_p[0]));
  CHECK(cudaFree(d_p[1]));
  CHECK(cudaFree(d_v[0]));
  CHECK(cudaFree(d_v[1]));
  return ok;
}

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int n = argc > 2 ? std::atoi(argv[2]) : 2048;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 2;
  const int tpb = argc > 4 ? std::atoi(argv[4]) : 256;
  if (tpb <= 0 || tpb > 1024 || n <= 0 || n % tpb != 0) {
    std::fprintf(stderr, "N must be a positive multiple of the block size %d (1..1024)\n", tpb);
    return 2;
  }
  bool ok = true;
  bool any = false;
  if (which == "all" || which == "struct12") { ok &= run<body12>("struct12", n, steps, false, tpb); any = true; }
  if (which == "all" || which == "float3") { ok &= run<float3>("float3", n, steps, false, tpb); any = true; }
  if (which == "all" || which == "padded16") { ok &= run<body16>("padded16", n, steps, false, tpb); any = true; }
  if (which == "all" || which == "float4") { ok &= run<float4>("float4", n, steps, false, tpb); any = true; }
  if (which == "all" || which == "shared") { ok &= run<float4>("shared", n, steps, true, tpb); any = true; }
  if (!any) {
    std::fprintf(stderr, "usage: nbody [all|struct12|float3|padded16|float4|shared] [N] [steps] [threads per block]\n");
    return 2;
  }
  CHECK(cudaDeviceReset());
  std::printf("%s\n", ok ? "all variants OK" : "SOME VARIANTS FAILED");
  return ok ? 0 : 1;
}
