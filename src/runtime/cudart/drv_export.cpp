// cuGetExportTable: the driver's private interface tables, which NVIDIA's static CUDA runtime
// (libcudart_static.a, linked in by nvcc's default -cudart static) asks for after it has loaded
// libcuda.so.1 (docs/runtime.md, "The static CUDA runtime"). Each table is an array of function
// pointers, most starting with the table's size in bytes. What the entries do was learnt from the
// runtime's calls (their arguments and what it does with the answers: WARPSCOPE_DRIVER_TRACE=1
// prints them) and from the public notes of reimplementations of the driver (ZLUDA's dark_api);
// the names below are descriptive, NVIDIA publishes none. An entry warpscope does not serve says
// so once, naming the table, the entry and the runtime's CUDA version, and returns
// CUDA_ERROR_NOT_SUPPORTED: the runtime then fails the program's call with an error, it does not
// crash.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/md2.hpp"

extern "C" {
using warpscope::cudart::drv::CUresult;
using warpscope::cudart::drv::Context;
CUresult cuDriverGetVersion(int* version);
CUresult cuDeviceGetCount(int* count);
CUresult cuDeviceGetAttribute(int* value, int attr, int dev);
CUresult cuDeviceGetUuid_v2(warpscope::cudart::Uuid* uuid, int dev);
CUresult cuDevicePrimaryCtxRetain(Context** ctx, int dev);
CUresult cuCtxCreate_v2(Context** ctx, unsigned flags, int dev);
CUresult cuModuleLoadData(void** module, const void* image);
}

namespace warpscope::cudart::drv {
namespace {

struct ExportId {
  std::uint8_t bytes[16];
};

// The tables, in the order NVIDIA's CUDA 13.0 static runtime asks for them.
enum TableIndex : int {
  kCudart,       // {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9}
  kToolsHooks,   // {a094798c-2e74-2e74-93f2-0800200c0a66}
  kToolsTls,     // {42d85a81-23f6-cb47-8298-f6e78a3aecdc}
  kContextStorage,  // {c693336e-1121-df11-a8c3-68f355d89593}
  kContextChecks,   // {263e8860-7cd2-6143-92f6-bbd5006dfa7e}
  kIntegrity,       // {d4082055-bde6-704b-8d34-ba123c66e1f2}
  kCtxCreateBypass,  // {0ca50b8c-1004-929a-89a7-d0df10e77286}
  kHeap,             // {195bcbf4-d67d-024a-acc5-1d29cea631ae}
  kDeviceExtended,   // {b10541e1-f7c7-c74a-9f64-f223be99f1e2}
  kTableCount
};

struct TableInfo {
  const char* name;
  ExportId id;
  std::size_t entries;
  bool size_first;  // entry 0 is the table's size in bytes
};

constexpr TableInfo kTables[kTableCount] = {
    {"cudart interface",
     {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}}, 13, true},
    {"tools runtime callback hooks",
     {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}}, 7, true},
    {"tools thread-local storage",
     {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}}, 4, true},
    {"context-local storage",
     {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}}, 4, false},
    {"context checks",
     {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}}, 4, true},
    {"integrity check",
     {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}}, 3, true},
    {"context creation bypass",
     {{0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86}}, 2, true},
    {"heap access",
     {{0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae}}, 3, true},
    {"device extended attributes",
     {{0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2}}, 26, true},
};

std::string id_text(const std::uint8_t* b) {
  return fmt::format("{{{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}}}", b[0],
                     b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void trace(const std::string& line) { driver_trace(line); }

/// The CUDA version of the runtime calling, as its integrity check request says (0 before it).
std::atomic<int> g_runtime_version{0};

std::string runtime_version_text() {
  const int v = g_runtime_version.load() != 0 ? g_runtime_version.load() : asked_driver_version();
  if (v == 0) return "its CUDA version not known yet";
  return fmt::format("CUDA {}.{}", v / 1000, v % 1000 / 10);
}

// ---- Entries warpscope does not serve -------------------------------------------------------------

CUresult unserved(int table, int entry) {
  static std::mutex mu;
  static std::set<std::pair<int, int>>& said = *new std::set<std::pair<int, int>>;  // never destroyed
  std::lock_guard lock(mu);
  if (said.insert({table, entry}).second) {
    const TableInfo& t = kTables[table];
    std::fprintf(stderr,
                 "warpscope: the program's static CUDA runtime (%s) called entry %d of the driver's private %s table "
                 "%s, which warpscope's driver does not serve (what the entry does is not publicly known); the call "
                 "returns CUDA_ERROR_NOT_SUPPORTED. Rebuilding the program with -cudart shared runs it on warpscope's "
                 "own runtime instead\n",
                 runtime_version_text().c_str(), entry, t.name, id_text(t.id.bytes).c_str());
  }
  return kCuNotSupported;
}

template <int Table, int Entry>
CUresult unserved_entry() {
  return unserved(Table, Entry);
}

template <int Table, std::size_t... I>
std::vector<void*> unserved_entries(std::index_sequence<I...>) {
  return {reinterpret_cast<void*>(&unserved_entry<Table, static_cast<int>(I)>)...};
}

// ---- cudart interface: modules from fatbinaries, the primary context --------------------------------

/// Entries 1, 6 and 8: a module from the program's fatbinary (entry 1 and 6 take the
/// __fatBinC_Wrapper_t nvcc registers, entry 8 the fatbinary itself). CUDA 13.0's runtime loads
/// libraries instead (cuLibraryLoadData); older runtimes register their modules here.
CUresult cudart_module(void** module, const void* wrapper) {
  trace(fmt::format("cudart interface: module from the fatbinary at {}", wrapper));
  if (module == nullptr || wrapper == nullptr) return kCuInvalidValue;
  return cuModuleLoadData(module, wrapper);
}
CUresult cudart_module_ext(void** module, const void* wrapper, void* a, void* b, unsigned c) {
  if (a != nullptr || b != nullptr || c != 0) return unserved(kCudart, 6);  // options nobody has seen
  return cudart_module(module, wrapper);
}
CUresult cudart_module_fatbin(const void* fatbin, void** module, void* a, void* b, unsigned c) {
  if (a != nullptr || b != nullptr || c != 0) return unserved(kCudart, 8);
  return cudart_module(module, fatbin);
}
/// Entry 2: the device's primary context (without retaining it: the runtime retains it later
/// with cuDevicePrimaryCtxRetain).
CUresult cudart_primary_context(Context** ctx, int dev) {
  trace(fmt::format("cudart interface: primary context of device {}", dev));
  if (ctx == nullptr) return kCuInvalidValue;
  if (dev != 0) return kCuInvalidDevice;
  *ctx = primary_context();
  return kCuSuccess;
}
/// Entry 7: no result, no effect seen.
void cudart_entry7(std::uintptr_t) {}
/// Entry 12: loads the driver's compilers (PTX JIT); warpscope interprets the PTX.
CUresult cudart_load_compilers() { return kCuSuccess; }

// ---- Tools callback hooks: two buffers the runtime fills for tools --------------------------------

alignas(16) std::uint64_t g_hooks_buffer1[1024];
alignas(16) std::uint64_t g_hooks_buffer2[16];
void hooks_buffer1(void** ptr, std::size_t* size) {
  trace("tools runtime callback hooks: buffer 1");
  *ptr = g_hooks_buffer1;
  *size = 1024;
}
void hooks_buffer2(void** ptr, std::size_t* size) {
  trace("tools runtime callback hooks: buffer 2");
  *ptr = g_hooks_buffer2;
  *size = 14;
}

// ---- Context-local storage: the runtime keeps its per-context state here ---------------------------

using StorageDestructor = void (*)(Context* ctx, void* key, void* value);
struct Stored {
  void* value;
  StorageDestructor destructor;
};
std::mutex& storage_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::pair<Context*, void*>, Stored>& storage() {
  // Never destroyed: the static runtime deletes its entry from its own atexit handler, which runs
  // after this library's static destructors.
  static auto& m = *new std::map<std::pair<Context*, void*>, Stored>;
  return m;
}
Context* storage_context(Context* ctx) { return ctx != nullptr ? ctx : current_context(); }

CUresult storage_put(Context* ctx, void* key, void* value, StorageDestructor destructor) {
  ctx = storage_context(ctx);
  trace(fmt::format("context-local storage: put key {} = {} in context {}", key, value, static_cast<void*>(ctx)));
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  std::lock_guard lock(storage_mutex());
  storage()[{ctx, key}] = Stored{value, destructor};
  return kCuSuccess;
}
CUresult storage_delete(Context* ctx, void* key) {
  ctx = storage_context(ctx);
  trace(fmt::format("context-local storage: delete key {} in context {}", key, static_cast<void*>(ctx)));
  if (ctx == nullptr) return kCuInvalidContext;
  std::lock_guard lock(storage_mutex());
  return storage().erase({ctx, key}) != 0 ? kCuSuccess : kCuInvalidHandle;
}
CUresult storage_get(void** value, Context* ctx, void* key) {
  ctx = storage_context(ctx);
  if (value == nullptr) return kCuInvalidValue;
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  std::lock_guard lock(storage_mutex());
  auto it = storage().find({ctx, key});
  if (it == storage().end()) return kCuInvalidHandle;  // the runtime then makes its state and puts it
  *value = it->second.value;
  return kCuSuccess;
}

// ---- Context checks ----------------------------------------------------------------------------------

/// Entry 2: a context's state for the runtime; the first result 0 lets it go on.
CUresult context_check(Context*, std::uint32_t* result, void**) {
  if (result != nullptr) *result = 0;
  return kCuSuccess;
}
/// Entry 3: asked once at initialisation; 0.
std::uint32_t context_check3() { return 0; }

// ---- Integrity check ---------------------------------------------------------------------------------

std::vector<void*>& table(int index);

/// Entry 1: the runtime asks three times, with versions V, V+1 and V+2 (V its CUDA version), and
/// the current time; it stops with cudaErrorIntegrityCheckFailed ("integrity checks failed") unless
/// the answers are right. Versions ending in 0 and 1 have fixed answers; the one ending in 2 is an
/// HMAC-MD2, under a fixed key, of the driver's version, the version asked, the process and
/// thread, the addresses of the cudart interface table, of this table and of this entry, the time,
/// then each device's UUID and PCI domain, bus and device numbers.
CUresult integrity_check(std::uint32_t version, std::uint64_t unix_seconds, std::uint64_t* result) {
  trace(fmt::format("integrity check: version {}, time {}", version, unix_seconds));
  if (result == nullptr) return kCuInvalidValue;
  int expected = 0;
  g_runtime_version.compare_exchange_strong(expected, static_cast<int>(version - version % 10));
  if (version % 10 == 0) {
    result[0] = 0x3341181c03cb675cull;
    result[1] = 0x8ed383aa1f4cd1e8ull;
    return kCuSuccess;
  }
  if (version % 10 == 1) {
    result[0] = 0x1841181c03cb675cull;
    result[1] = 0x8ed383aa1f4cd1e8ull;
    return kCuSuccess;
  }
  int driver = 0;
  cuDriverGetVersion(&driver);
  struct Input {
    std::uint32_t driver_version, version, process, thread;
    const void* cudart_table;
    const void* integrity_table;
    const void* entry;
    std::uint64_t unix_seconds;
  };
  static_assert(sizeof(Input) == 48);
  const Input in{static_cast<std::uint32_t>(driver), version, static_cast<std::uint32_t>(getpid()),
                 static_cast<std::uint32_t>(pthread_self()), table(kCudart).data(), table(kIntegrity).data(),
                 reinterpret_cast<const void*>(&integrity_check), unix_seconds};
  struct DeviceId {
    std::uint8_t uuid[16];
    int pci_domain, pci_bus, pci_device;
  };
  static_assert(sizeof(DeviceId) == 28);
  int count = 0;
  if (CUresult e = cuDeviceGetCount(&count); e != kCuSuccess) return e;
  std::vector<DeviceId> devices(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    DeviceId& id = devices[static_cast<std::size_t>(d)];
    Uuid uuid{};
    static_assert(sizeof(uuid) == 16);
    cuDeviceGetUuid_v2(&uuid, d);
    std::memcpy(id.uuid, &uuid, 16);
    cuDeviceGetAttribute(&id.pci_domain, 50, d);  // CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID
    cuDeviceGetAttribute(&id.pci_bus, 33, d);     // CU_DEVICE_ATTRIBUTE_PCI_BUS_ID
    cuDeviceGetAttribute(&id.pci_device, 34, d);  // CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID
  }
  const md2::Digest key = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                           0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
  const std::span<const std::uint8_t> parts[] = {
      std::span(reinterpret_cast<const std::uint8_t*>(&in), sizeof in),
      std::span(reinterpret_cast<const std::uint8_t*>(devices.data()), devices.size() * sizeof(DeviceId))};
  const md2::Digest h = md2::hmac(key, parts);
  std::memcpy(result, h.data(), h.size());
  return kCuSuccess;
}

// ---- Context creation bypass -----------------------------------------------------------------------

CUresult ctx_create_bypass(Context** ctx, unsigned flags, int dev) { return cuCtxCreate_v2(ctx, flags, dev); }

// ---- The tables ------------------------------------------------------------------------------------

template <int Table>
std::vector<void*> make_table() {
  constexpr std::size_t n = kTables[Table].entries;
  std::vector<void*> t = unserved_entries<Table>(std::make_index_sequence<n>{});
  if (kTables[Table].size_first) t[0] = reinterpret_cast<void*>(n * sizeof(void*));
  return t;
}

template <typename F>
void* fn(F* f) {
  return reinterpret_cast<void*>(f);
}

std::vector<void*>* build_tables() {
  auto* t = new std::vector<void*>[kTableCount];  // never destroyed: the runtime keeps the pointers
  t[kCudart] = make_table<kCudart>();
  t[kCudart][1] = fn(&cudart_module);
  t[kCudart][2] = fn(&cudart_primary_context);
  t[kCudart][6] = fn(&cudart_module_ext);
  t[kCudart][7] = fn(&cudart_entry7);
  t[kCudart][8] = fn(&cudart_module_fatbin);
  t[kCudart][12] = fn(&cudart_load_compilers);
  t[kToolsHooks] = make_table<kToolsHooks>();
  t[kToolsHooks][2] = fn(&hooks_buffer1);
  t[kToolsHooks][6] = fn(&hooks_buffer2);
  t[kToolsTls] = make_table<kToolsTls>();
  t[kContextStorage] = make_table<kContextStorage>();
  t[kContextStorage][0] = fn(&storage_put);
  t[kContextStorage][1] = fn(&storage_delete);
  t[kContextStorage][2] = fn(&storage_get);
  t[kContextChecks] = make_table<kContextChecks>();
  t[kContextChecks][2] = fn(&context_check);
  t[kContextChecks][3] = fn(&context_check3);
  t[kIntegrity] = make_table<kIntegrity>();
  t[kIntegrity][1] = fn(&integrity_check);
  t[kCtxCreateBypass] = make_table<kCtxCreateBypass>();
  t[kCtxCreateBypass][1] = fn(&ctx_create_bypass);
  t[kHeap] = make_table<kHeap>();
  t[kDeviceExtended] = make_table<kDeviceExtended>();
  return t;
}

std::vector<void*>& table(int index) {
  static std::vector<void*>* t = build_tables();
  return t[index];
}

}  // namespace

bool driver_tracing() {
  static const bool on = [] {
    const char* v = std::getenv("WARPSCOPE_DRIVER_TRACE");
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

void driver_trace(const std::string& line) {
  if (driver_tracing()) std::fprintf(stderr, "warpscope: driver trace: %s\n", line.c_str());
}

void context_storage_release(Context* ctx) {
  std::vector<std::pair<void*, Stored>> gone;
  {
    std::lock_guard lock(storage_mutex());
    auto& s = storage();
    for (auto it = s.begin(); it != s.end();) {
      if (it->first.first == ctx) {
        gone.emplace_back(it->first.second, it->second);
        it = s.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Outside the lock: the runtime's destructor may call the driver (it unloads its libraries).
  for (const auto& [key, stored] : gone) {
    trace(fmt::format("context-local storage: destructor of key {} in context {}", key, static_cast<void*>(ctx)));
    if (stored.destructor != nullptr) stored.destructor(ctx, key, stored.value);
  }
}

}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart::drv;  // NOLINT: the C entry point below

// An id no table has: CUDA_ERROR_INVALID_VALUE and NULL. CUDA 13.0's runtime asks first for
// {f8cff951-2146-8b4e-b9e2-fb469e7c0dd9} and goes on without it.
WS_DRV CUresult cuGetExportTable(const void** table_out, const ExportId* id) {
  if (table_out == nullptr || id == nullptr) return kCuInvalidValue;
  for (int i = 0; i < kTableCount; ++i) {
    if (std::memcmp(kTables[i].id.bytes, id->bytes, 16) == 0) {
      trace(fmt::format("cuGetExportTable {} ({})", id_text(id->bytes), kTables[i].name));
      *table_out = table(i).data();
      return kCuSuccess;
    }
  }
  trace(fmt::format("cuGetExportTable {}: no such table", id_text(id->bytes)));
  *table_out = nullptr;
  return kCuInvalidValue;
}
