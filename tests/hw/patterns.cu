// Ground-truth probes for the memory model: one kernel per warp access pattern, each checking its
// own result, run under Nsight Compute on an H100 by capture.sh. Every kernel does exactly one
// planted memory operation of interest (plus a coalesced store of the result where noted), so the
// kernel-level counters are the pattern's counters.
//
// Index of lane l of warp w (g = global thread id, wbase = g - l):
//   idx = wbase * wmul + (l * mul + add) % mod
// e.g. consecutive: (wmul 1, mul 1, add 0), misaligned by one element: add 1, one word per warp:
// mul 0, stride 32 elements: wmul 32, mul 32, permuted in a line: mul 7, add 3, mod 32.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

struct Pattern {
  const char* name;
  long long wmul, mul, add, mod;
};

static const Pattern kPatterns[] = {
    {"consecutive", 1, 1, 0, 1 << 30},
    {"offset1", 1, 1, 1, 1 << 30},
    {"sameword", 1, 0, 0, 1 << 30},
    {"stride32", 32, 32, 0, 1 << 30},
    {"permuted", 1, 7, 3, 32},
    {"stride2", 2, 2, 0, 1 << 30},
};

__device__ __forceinline__ long long pattern_index(long long wmul, long long mul, long long add, long long mod) {
  long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long lane = threadIdx.x & 31;
  return (g - lane) * wmul + (lane * mul + add) % mod;
}

// Loads: plain ld.global (default caching) and ld.global.cg (__ldcg). The store of the result is a
// coalesced st.global of the same width, counted separately by ncu (op_st).
template <class T>
__global__ void load_default(const T* in, T* out, long long wmul, long long mul, long long add, long long mod) {
  long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  out[g] = in[pattern_index(wmul, mul, add, mod)];
}
template <class T>
__global__ void load_cg(const T* in, T* out, long long wmul, long long mul, long long add, long long mod) {
  long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  out[g] = __ldcg(&in[pattern_index(wmul, mul, add, mod)]);
}
// Stores at the pattern's index (value = global thread id, converted).
template <class T>
__global__ void store_pattern(T* out, long long wmul, long long mul, long long add, long long mod) {
  long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  T v;
  std::memset(&v, 0, sizeof v);
  *reinterpret_cast<unsigned char*>(&v) = static_cast<unsigned char>(g);
  out[pattern_index(wmul, mul, add, mod)] = v;
}

// Local memory: a private array indexed by a value the compiler cannot resolve. `uniform` picks
// the index from the block (same for the whole warp) or from the thread.
template <class T, int N>
__global__ void local_array(const int* sel, T* out, int per_thread) {
  T a[N];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < N; ++k) {
    std::memset(&a[k], 0, sizeof(T));
    *reinterpret_cast<unsigned char*>(&a[k]) = static_cast<unsigned char>(k + g);
  }
  int i = per_thread ? sel[g] : sel[blockIdx.x * blockDim.x];
  out[g] = a[i];
}

struct Int2x { int v[2]; };
struct Int4x { int v[4]; };

// Shared memory: every thread stores then loads word `(lane * stride) % 1024` of a shared array of
// T; the store and load are the planted operations.
template <class T>
__global__ void shared_stride(T* out, int stride) {
  __shared__ T s[1024];
  int lane = threadIdx.x & 31;
  int w = threadIdx.x >> 5;
  int idx = (lane * stride + w * 32) % 1024;
  T v;
  std::memset(&v, 0, sizeof v);
  *reinterpret_cast<unsigned char*>(&v) = static_cast<unsigned char>(threadIdx.x);
  s[idx] = v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[idx];
}

// Every launch is announced on stdout in launch order, so that ncu's per-launch rows (whose
// "ID" column counts launches from 0) can be matched to the pattern that produced them.
static int g_launch = 0;
static void announce(const char* kernel, const char* type, const char* pattern, int blocks, int threads) {
  std::printf("launch %d: %s %s %s grid %d block %d\n", g_launch++, kernel, type, pattern, blocks, threads);
}

template <class T>
static int check_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  if (std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) != 0) {
    std::printf("FAIL %s\n", what);
    return 1;
  }
  return 0;
}

template <class T>
static int run_type(const char* tname, int blocks, int threads) {
  int failures = 0;
  const long long n = (long long)blocks * threads;
  const long long span = n * 32 + 64;  // elements reachable by the widest pattern
  std::vector<T> host_in(span);
  for (long long k = 0; k < span; ++k) {
    std::memset(&host_in[k], 0, sizeof(T));
    std::memcpy(&host_in[k], &k, sizeof(T) < sizeof(k) ? sizeof(T) : sizeof(k));
  }
  T *in, *out;
  CHECK(cudaMalloc(&in, span * sizeof(T)));
  CHECK(cudaMalloc(&out, span * sizeof(T)));
  CHECK(cudaMemcpy(in, host_in.data(), span * sizeof(T), cudaMemcpyHostToDevice));
  for (const Pattern& p : kPatterns) {
    std::vector<T> want(n), got(n);
    for (long long g = 0; g < n; ++g) {
      long long lane = g & 31;
      want[g] = host_in[(g - lane) * p.wmul + (lane * p.mul + p.add) % p.mod];
    }
    char what[128];
    std::snprintf(what, sizeof what, "load_default %s %s", tname, p.name);
    announce("load_default", tname, p.name, blocks, threads);
    load_default<T><<<blocks, threads>>>(in, out, p.wmul, p.mul, p.add, p.mod);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    failures += check_equal(what, got, want);
    std::snprintf(what, sizeof what, "load_cg %s %s", tname, p.name);
    announce("load_cg", tname, p.name, blocks, threads);
    load_cg<T><<<blocks, threads>>>(in, out, p.wmul, p.mul, p.add, p.mod);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    failures += check_equal(what, got, want);
    announce("store_pattern", tname, p.name, blocks, threads);
    store_pattern<T><<<blocks, threads>>>(out, p.wmul, p.mul, p.add, p.mod);
    CHECK(cudaDeviceSynchronize());
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return failures;
}

template <class T, int N>
static int run_local(const char* tname, int blocks, int threads) {
  int n = blocks * threads, failures = 0;
  std::vector<int> sel(n);
  for (int g = 0; g < n; ++g) sel[g] = (g * 5 + 3) % N;
  int* dsel;
  T* out;
  CHECK(cudaMalloc(&dsel, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(T)));
  CHECK(cudaMemcpy(dsel, sel.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  for (int per_thread = 0; per_thread < 2; ++per_thread) {
    announce("local_array", tname, per_thread ? "per_thread" : "uniform", blocks, threads);
    local_array<T, N><<<blocks, threads>>>(dsel, out, per_thread);
    std::vector<T> got(n);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int g = 0; g < n; ++g) {
      int i = per_thread ? sel[g] : sel[(g / threads) * threads];
      unsigned char first;
      std::memcpy(&first, &got[g], 1);
      if (first != static_cast<unsigned char>(i + g)) {
        std::printf("FAIL local_array %s per_thread=%d at %d\n", tname, per_thread, g);
        ++failures;
        break;
      }
    }
  }
  CHECK(cudaFree(dsel));
  CHECK(cudaFree(out));
  return failures;
}

template <class T>
static int run_shared(const char* tname, int threads) {
  int failures = 0;
  T* out;
  CHECK(cudaMalloc(&out, threads * sizeof(T)));
  for (int stride : {1, 2, 32, 0, 33}) {
    char sname[32];
    std::snprintf(sname, sizeof sname, "stride%d", stride);
    announce("shared_stride", tname, sname, 1, threads);
    shared_stride<T><<<1, threads>>>(out, stride);
    std::vector<T> got(threads);
    CHECK(cudaMemcpy(got.data(), out, threads * sizeof(T), cudaMemcpyDeviceToHost));
    // Each thread reads back the slot it wrote; with stride 0 all lanes of a warp share one slot
    // and the value of one writer survives, so only check strides without collisions.
    if (stride != 0) {
      for (int t = 0; t < threads; ++t) {
        unsigned char first;
        std::memcpy(&first, &got[t], 1);
        if (first != static_cast<unsigned char>(t)) {
          std::printf("FAIL shared_stride %s stride %d thread %d\n", tname, stride, t);
          ++failures;
          break;
        }
      }
    }
  }
  CHECK(cudaFree(out));
  return failures;
}

int main(int argc, char** argv) {
  // argv[1]: blocks, argv[2]: threads per block for the global patterns (default 1 warp).
  int blocks = argc > 1 ? std::atoi(argv[1]) : 1;
  int threads = argc > 2 ? std::atoi(argv[2]) : 32;
  // argv[3]: which groups to run, e.g. "u32,i128,local,shared" (default: all).
  const char* only = argc > 3 ? argv[3] : nullptr;
  auto want = [&](const char* group) {
    if (!only) return true;
    const char* hit = std::strstr(only, group);
    size_t len = std::strlen(group);
    return hit && (hit == only || hit[-1] == ',') && (hit[len] == ',' || hit[len] == 0);
  };
  int failures = 0;
  if (want("u8")) failures += run_type<unsigned char>("u8", blocks, threads);
  if (want("u16")) failures += run_type<unsigned short>("u16", blocks, threads);
  if (want("u32")) failures += run_type<unsigned int>("u32", blocks, threads);
  if (want("u64")) failures += run_type<unsigned long long>("u64", blocks, threads);
  if (want("i128")) failures += run_type<int4>("i128", blocks, threads);
  if (want("local")) {
    failures += run_local<int, 16>("i32", blocks, threads);
    failures += run_local<int4, 16>("i128", blocks, threads);
  }
  if (want("shared")) {
    failures += run_shared<int>("i32", 32);
    failures += run_shared<int2>("i64", 32);
    failures += run_shared<int4>("i128", 32);
  }
  std::printf("%s: %d failures\n", failures ? "FAILED" : "OK", failures);
  return failures != 0;
}
