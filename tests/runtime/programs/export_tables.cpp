// The driver's private export tables (cuGetExportTable) called directly, as NVIDIA's static
// runtime calls them (docs/runtime.md, "The static CUDA runtime"): what each served entry does,
// the refusal of an entry warpscope does not serve and of an unknown id. The expected values are
// the ones the static runtime relies on (observed with WARPSCOPE_DRIVER_TRACE=1 and documented
// there), never warpscope's output. Usage: export_tables KERNELS.fatbin
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

static int failures = 0;

#define EXPECT(name, cond)                                             \
  do {                                                                 \
    if (cond) {                                                        \
      std::printf("ok %s\n", name);                                    \
    } else {                                                           \
      ++failures;                                                      \
      std::printf("not ok %s: %s (line %d)\n", name, #cond, __LINE__); \
    }                                                                  \
  } while (0)

static CUuuid id(std::initializer_list<unsigned> bytes) {
  CUuuid u;
  int i = 0;
  for (unsigned b : bytes) u.bytes[i++] = static_cast<char>(b);
  return u;
}

using Put = CUresult (*)(CUcontext, void*, void*, void (*)(CUcontext, void*, void*));
using Delete = CUresult (*)(CUcontext, void*);
using Get = CUresult (*)(void**, CUcontext, void*);
using PrimaryContext = CUresult (*)(CUcontext*, CUdevice);
using ModuleFromWrapper = CUresult (*)(CUmodule*, const void*);
using Integrity = CUresult (*)(unsigned, unsigned long long, unsigned long long*);
using HeapAlloc = CUresult (*)(void**, size_t, size_t);

static int destroyed = 0;
static void* destroyed_key = nullptr;
static void* destroyed_value = nullptr;
static void on_destroy(CUcontext, void* key, void* value) {
  ++destroyed;
  destroyed_key = key;
  destroyed_value = value;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  EXPECT("init", cuInit(0) == CUDA_SUCCESS);
  CUdevice dev = 0;
  cuDeviceGet(&dev, 0);
  CUcontext primary = nullptr;
  EXPECT("retain", cuDevicePrimaryCtxRetain(&primary, dev) == CUDA_SUCCESS);
  cuCtxSetCurrent(primary);

  const void* table = reinterpret_cast<const void*>(1);
  const CUuuid unknown = id({0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9});
  EXPECT("unknown_id_invalid_value", cuGetExportTable(&table, &unknown) == CUDA_ERROR_INVALID_VALUE);
  EXPECT("unknown_id_null", table == nullptr);
  EXPECT("null_id", cuGetExportTable(&table, nullptr) == CUDA_ERROR_INVALID_VALUE);

  // The cudart interface: 13 entries, entry 0 their size in bytes; entry 2 the primary context;
  // entry 1 a module from nvcc's fatbinary wrapper.
  const CUuuid cudart = id({0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9});
  EXPECT("cudart_table", cuGetExportTable(&table, &cudart) == CUDA_SUCCESS && table != nullptr);
  auto* entries = static_cast<void* const*>(table);
  EXPECT("cudart_table_size", reinterpret_cast<std::uintptr_t>(entries[0]) == 13 * sizeof(void*));
  CUcontext ctx = nullptr;
  EXPECT("cudart_primary_context", reinterpret_cast<PrimaryContext>(entries[2])(&ctx, 0) == CUDA_SUCCESS && ctx == primary);
  std::ifstream in(argv[1], std::ios::binary);
  const std::string fatbin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  struct {
    int magic;
    int version;
    const void* data;
    void* filename_or_fatbins;
  } wrapper{0x466243b1, 1, fatbin.data(), nullptr};
  CUmodule module = nullptr;
  EXPECT("cudart_module_from_wrapper",
         reinterpret_cast<ModuleFromWrapper>(entries[1])(&module, &wrapper) == CUDA_SUCCESS && module != nullptr);
  CUfunction fn = nullptr;
  EXPECT("cudart_module_has_kernel", cuModuleGetFunction(&fn, module, "scale_add") == CUDA_SUCCESS && fn != nullptr);

  // Context-local storage: put, get, delete; a missing key is CUDA_ERROR_INVALID_HANDLE; NULL is
  // the current context; a reset of the primary context runs the destructors.
  const CUuuid storage = id({0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93});
  EXPECT("storage_table", cuGetExportTable(&table, &storage) == CUDA_SUCCESS);
  entries = static_cast<void* const*>(table);
  auto put = reinterpret_cast<Put>(entries[0]);
  auto del = reinterpret_cast<Delete>(entries[1]);
  auto get = reinterpret_cast<Get>(entries[2]);
  int key1 = 0, key2 = 0, value1 = 0, value2 = 0;
  void* got = nullptr;
  EXPECT("storage_get_missing", get(&got, nullptr, &key1) == CUDA_ERROR_INVALID_HANDLE);
  EXPECT("storage_put", put(nullptr, &key1, &value1, nullptr) == CUDA_SUCCESS);
  EXPECT("storage_get_current", get(&got, nullptr, &key1) == CUDA_SUCCESS && got == &value1);
  EXPECT("storage_get_primary", get(&got, primary, &key1) == CUDA_SUCCESS && got == &value1);
  EXPECT("storage_delete", del(primary, &key1) == CUDA_SUCCESS);
  EXPECT("storage_get_deleted", get(&got, nullptr, &key1) == CUDA_ERROR_INVALID_HANDLE);
  EXPECT("storage_put_with_destructor", put(primary, &key2, &value2, &on_destroy) == CUDA_SUCCESS);
  EXPECT("storage_no_destructor_yet", destroyed == 0);
  EXPECT("reset", cuDevicePrimaryCtxReset(dev) == CUDA_SUCCESS);
  EXPECT("storage_destructor_on_reset", destroyed == 1 && destroyed_key == &key2 && destroyed_value == &value2);
  cuDevicePrimaryCtxRetain(&primary, dev);
  cuCtxSetCurrent(primary);
  EXPECT("storage_gone_after_reset", get(&got, nullptr, &key2) == CUDA_ERROR_INVALID_HANDLE);

  // The integrity check's fixed answers (versions ending in 0 and 1).
  const CUuuid integrity = id({0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2});
  EXPECT("integrity_table", cuGetExportTable(&table, &integrity) == CUDA_SUCCESS);
  entries = static_cast<void* const*>(table);
  unsigned long long answer[2] = {0, 0};
  EXPECT("integrity_13000", reinterpret_cast<Integrity>(entries[1])(13000, 1700000000, answer) == CUDA_SUCCESS &&
                                answer[0] == 0x3341181c03cb675cull && answer[1] == 0x8ed383aa1f4cd1e8ull);
  EXPECT("integrity_13001", reinterpret_cast<Integrity>(entries[1])(13001, 1700000000, answer) == CUDA_SUCCESS &&
                                answer[0] == 0x1841181c03cb675cull && answer[1] == 0x8ed383aa1f4cd1e8ull);

  // An entry warpscope does not serve: CUDA_ERROR_NOT_SUPPORTED and one line on stderr.
  const CUuuid heap = id({0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae});
  EXPECT("heap_table", cuGetExportTable(&table, &heap) == CUDA_SUCCESS);
  entries = static_cast<void* const*>(table);
  void* record = nullptr;
  EXPECT("heap_alloc_not_supported", reinterpret_cast<HeapAlloc>(entries[1])(&record, 64, 0) == CUDA_ERROR_NOT_SUPPORTED);
  EXPECT("heap_alloc_again", reinterpret_cast<HeapAlloc>(entries[1])(&record, 64, 0) == CUDA_ERROR_NOT_SUPPORTED);

  // A newer runtime's request: CUDA_ERROR_INVALID_VALUE, and one line on stderr naming its version.
  void* pfn = nullptr;
  CUdriverProcAddressQueryResult status;
  EXPECT("proc_address_newer", cuGetProcAddress("cuMemAlloc", &pfn, 13010, 0, &status) == CUDA_ERROR_INVALID_VALUE);

  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
