// One integration step of the N-body kernel of seed 003, in the five layouts the slides time:
// a 12-byte struct of three floats, float3, a 16-byte struct padded with a fourth float,
// float4, and float4 with shared-memory tiles. The arithmetic is the slides' (including
// `1.0 / sqrtf(...)`, a double-precision division). Checked by tests/corpus/nbody_test.cpp.

#define NBODY_EPS 0.0001f
#define NBODY_TILE 128  // block size of the shared-memory version; n must be a multiple

struct body12 {
  float x;
  float y;
  float z;
};

struct body16 {
  float x;
  float y;
  float z;
  float _padding;  // carried through unchanged
};

// The body of the slides' integrate(), for any coordinate type with .x/.y/.z.
#define NBODY_INTEGRATE(coord)                                                         \
  int index = blockIdx.x * blockDim.x + threadIdx.x;                                   \
  if (index >= n) return;                                                              \
  coord body_pos = p[index];                                                           \
  coord body_vel = v[index];                                                           \
  coord f;                                                                             \
  f.x = 0;                                                                             \
  f.y = 0;                                                                             \
  f.z = 0;                                                                             \
  for (int i = 0; i < n; i++) {                                                        \
    coord pi = p[i];                                                                   \
    coord r;                                                                           \
    r.x = pi.x - body_pos.x;                                                           \
    r.y = pi.y - body_pos.y;                                                           \
    r.z = pi.z - body_pos.z;                                                           \
    float invDist = 1.0 / sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + NBODY_EPS * NBODY_EPS); \
    float s = invDist * invDist * invDist;                                             \
    f.x += r.x * s;                                                                    \
    f.y += r.y * s;                                                                    \
    f.z += r.z * s;                                                                    \
  }                                                                                    \
  body_vel.x += f.x * dt;                                                              \
  body_vel.y += f.y * dt;                                                              \
  body_vel.z += f.z * dt;                                                              \
  body_pos.x += body_vel.x * dt;                                                       \
  body_pos.y += body_vel.y * dt;                                                       \
  body_pos.z += body_vel.z * dt;                                                       \
  new_p[index] = body_pos;                                                             \
  new_v[index] = body_vel;

extern "C" __global__ void nbody_struct12(body12* new_p, body12* new_v, body12* p, body12* v,
                                          int n, float dt) {
  NBODY_INTEGRATE(body12)
}

extern "C" __global__ void nbody_float3(float3* new_p, float3* new_v, float3* p, float3* v, int n,
                                        float dt) {
  NBODY_INTEGRATE(float3)
}

extern "C" __global__ void nbody_struct16(body16* new_p, body16* new_v, body16* p, body16* v,
                                          int n, float dt) {
  NBODY_INTEGRATE(body16)
}

extern "C" __global__ void nbody_float4(float4* new_p, float4* new_v, float4* p, float4* v, int n,
                                        float dt) {
  NBODY_INTEGRATE(float4)
}

// The slides' last version: each block stages NBODY_TILE positions in shared memory per step of
// the outer loop. Assumes n % NBODY_TILE == 0 and blockDim.x == NBODY_TILE.
extern "C" __global__ void nbody_float4_shared(float4* new_p, float4* new_v, float4* p, float4* v,
                                               int n, float dt) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  float4 body_pos = p[index];
  float4 body_vel = v[index];
  float4 f;
  f.x = 0;
  f.y = 0;
  f.z = 0;
  __shared__ float4 sp[NBODY_TILE];
  for (int ind = 0; ind < n; ind += NBODY_TILE) {
    sp[threadIdx.x] = p[ind + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < NBODY_TILE; i++) {
      float4 r;
      r.x = sp[i].x - body_pos.x;
      r.y = sp[i].y - body_pos.y;
      r.z = sp[i].z - body_pos.z;
      float invDist = 1.0 / sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + NBODY_EPS * NBODY_EPS);
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
