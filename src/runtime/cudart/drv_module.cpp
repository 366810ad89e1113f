// The driver API's modules, libraries, functions and launches (drv.hpp). A module is a ModuleRec
// of the runtime without a fatbinary wrapper: its PTX (given as text, or taken from a fatbinary as
// the runtime chooses it) is kept in parts[0], and Runtime::ensure_loaded loads it; a CUmodule and
// a CUlibrary are that record, a CUfunction and a CUkernel its KernelRec (the runtime's
// cudaKernel_t is the same record, so cuKernelGetFunction takes either). Launches go through the
// runtime's launch path: the report has them like <<<>>> launches.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/elf_file.hpp"
#include "common/error.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"
#include "runtime/cudart/texref.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
using warpscope::cudart::Dim3;
cudaError_t __cudaLaunchKernel(const void* kernel, Dim3 grid, Dim3 block, void** args, std::size_t shmem, void* stream);
cudaError_t cudaLaunchCooperativeKernel(const void* func, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                                        void* stream);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, const void* func, int blocks, int block_size);
cudaError_t cudaOccupancyMaxPotentialClusterSize(int* size, const void* func, const warpscope::cudart::LaunchConfig* config);
cudaError_t cudaOccupancyMaxActiveClusters(int* count, const void* func, const warpscope::cudart::LaunchConfig* config);
}

namespace warpscope::cudart::drv {
namespace fatbin = warpscope::runtime::fatbin;
namespace {

std::set<ModuleRec*>& driver_modules() {
  static std::set<ModuleRec*>& s = *new std::set<ModuleRec*>;  // never destroyed (calls from atexit)
  return s;
}

std::uint32_t read_u32(const void* p) {
  std::uint32_t v = 0;
  std::memcpy(&v, p, 4);
  return v;
}

/// The nvcc flags that embed PTX the profile runs.
std::string ptx_flags(const arch::Profile& p) {
  return fmt::format("-gencode arch=compute_{0}{1},code=compute_{0}{1}", p.cc_major, p.cc_minor);
}

/// A -rdc=true program built with NVIDIA's static runtime (nvcc's default) loads its device link's
/// image, machine code only, with cuLibraryLoadData; the translation units' fatbinaries, with their
/// PTX, are in the executable's __nv_relfatbin section (docs/runtime.md, "Relocatable device
/// code"). When `image` (`size` bytes) is part of the executable's .nv_fatbin, the units that hold
/// PTX the profile runs, to be linked as the shared runtime links them; empty otherwise.
std::vector<PtxPart> relocatable_units(Runtime& rt, const void* image, std::size_t size, const std::string& what) {
  std::vector<PtxPart> parts;
  std::vector<std::uint8_t> exe;
  try {
    exe = read_file_bytes("/proc/self/exe");
  } catch (const Error&) {
    return parts;
  }
  try {
    const ElfFile elf(std::span<const std::uint8_t>(exe), "/proc/self/exe");
    const auto fatbins = elf.section(".nv_fatbin");
    const auto rel = elf.section("__nv_relfatbin");
    if (!fatbins || !rel) return parts;
    const auto linked = elf.section_bytes(*fatbins);
    const auto* first = static_cast<const std::uint8_t*>(image);
    if (std::search(linked.begin(), linked.end(), first, first + size) == linked.end()) return parts;
    const auto units = fatbin::parse_all(elf.section_bytes(*rel), "__nv_relfatbin");
    for (std::size_t i = 0; i < units.size(); ++i) {
      const std::string origin = fmt::format("{}, translation unit {}", what, i);
      std::string why;
      const fatbin::Entry* e = rt.choose_part_ptx(units[i], origin, &why);
      if (e == nullptr) continue;  // libcudadevrt's unit, for one, has machine code only
      PtxPart part;
      part.ptx = fatbin::contents(*e, origin);
      part.ptx_arch = static_cast<int>(e->arch);
      part.origin = fmt::format("{} (compute_{} PTX from __nv_relfatbin, {})", origin, e->arch,
                                fatbin::to_string(e->compression));
      parts.push_back(std::move(part));
    }
  } catch (const Error& e) {
    rt.note(fmt::format("{}: cannot read the executable's relocatable device code: {}", what, e.what()));
    parts.clear();
  }
  return parts;
}

/// Loads a driver image: PTX text, a fatbinary, or a fatbinary wrapper; a cubin (ELF) or a
/// fatbinary without PTX the profile runs is refused with CUDA_ERROR_NO_BINARY_FOR_GPU and a
/// message naming the module and the nvcc flags that embed PTX. `what` names the module.
CUresult load_image(Runtime& rt, const void* image, std::string what, ModuleRec** out) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  const arch::Profile& p = rt.profile();
  std::string ptx;
  int ptx_arch = 0;
  std::string detail;
  const std::uint32_t magic = read_u32(bytes);
  std::vector<PtxPart> linked;
  std::string linked_origin;
  if (link_image_parts(image, &linked)) {  // cuLinkComplete's image: PTX modules to link
    linked_origin = fmt::format("{} (cuLinkComplete's {} PTX modules)", what, linked.size());
  } else if (magic == fatbin::kWrapperMagic || magic == fatbin::kFatbinMagic) {
    const void* fb_ptr = magic == fatbin::kWrapperMagic ? fatbin::read_wrapper(image).fatbin : image;
    const std::size_t size = fatbin::size_from_header(fb_ptr, what);
    const fatbin::Fatbin fb = fatbin::parse(std::span(static_cast<const std::uint8_t*>(fb_ptr), size), what);
    if (std::none_of(fb.entries.begin(), fb.entries.end(), [](const fatbin::Entry& x) { return x.is_ptx(); })) {
      linked = relocatable_units(rt, fb_ptr, size, what);
      if (!linked.empty())
        linked_origin = fmt::format("{} (device link of {} translation units with PTX)", what, linked.size());
    }
  }
  if (!linked.empty()) {
    auto rec = std::make_unique<ModuleRec>();
    rec->origin = linked_origin;
    for (const PtxPart& part : linked) rec->ptx_arch = std::max(rec->ptx_arch, part.ptx_arch);
    rec->parts = std::move(linked);
    rec->linked = true;
    ModuleRec& mod = *rec;
    rt.modules.push_back(std::move(rec));
    if (cudaError_t e = rt.ensure_loaded(mod); e != kSuccess) return from_runtime(e);
    driver_modules().insert(&mod);
    *out = &mod;
    return kCuSuccess;
  }
  if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    rt.note(fmt::format("{} is machine code (a cubin), which warpscope cannot run: it runs PTX. Load the PTX "
                        "instead (nvcc -ptx), or a fatbinary that holds it (nvcc -fatbin {})",
                        what, ptx_flags(p)));
    return kCuNoBinaryForGpu;
  }
  if (magic == fatbin::kWrapperMagic || magic == fatbin::kFatbinMagic) {
    const void* fb_ptr = magic == fatbin::kWrapperMagic ? fatbin::read_wrapper(image).fatbin : image;
    const std::size_t size = fatbin::size_from_header(fb_ptr, what);
    const fatbin::Fatbin fb = fatbin::parse(std::span(static_cast<const std::uint8_t*>(fb_ptr), size), what);
    std::string why;
    const fatbin::Entry* e = rt.choose_part_ptx(fb, what, &why);
    if (e == nullptr) {
      const bool any = std::any_of(fb.entries.begin(), fb.entries.end(), [](const fatbin::Entry& x) { return x.is_ptx(); });
      rt.note(fmt::format("{}: {}; warpscope runs PTX: {}", what, why,
                          any ? "set --any-ptx to run the newer PTX anyway"
                              : fmt::format("rebuild the fatbinary with PTX (nvcc -fatbin {})", ptx_flags(p))));
      return kCuNoBinaryForGpu;
    }
    ptx = fatbin::contents(*e, what);
    ptx_arch = static_cast<int>(e->arch);
    detail = fmt::format("compute_{} PTX from a fatbinary, {}", e->arch, fatbin::to_string(e->compression));
  } else {
    ptx = reinterpret_cast<const char*>(bytes);
    static const std::regex target(R"(\.target\s+sm_(\d+))");
    std::smatch m;
    if (ptx.find(".version") == std::string::npos || !std::regex_search(ptx, m, target)) {
      rt.note(fmt::format("{} is neither PTX text (no .version and .target sm_XX), a fatbinary nor a cubin", what));
      return kCuInvalidImage;
    }
    ptx_arch = std::stoi(m[1].str());
    detail = fmt::format("sm_{} PTX text", ptx_arch);
  }
  auto rec = std::make_unique<ModuleRec>();
  ModuleRec& mod = *rec;
  mod.origin = fmt::format("{} ({})", what, detail);
  mod.ptx_arch = ptx_arch;
  mod.parts.push_back(PtxPart{std::move(ptx), ptx_arch, mod.origin});
  rt.modules.push_back(std::move(rec));
  if (cudaError_t e = rt.ensure_loaded(mod); e != kSuccess) return from_runtime(e);
  driver_modules().insert(&mod);
  *out = &mod;
  return kCuSuccess;
}

/// "cuModuleLoadData image 2": the third image that call loaded, for messages and the report.
std::string module_name(const char* call) {
  static std::map<std::string, int>& n = *new std::map<std::string, int>;  // never destroyed
  return fmt::format("{} image {}", call, n[call]++);
}

CUresult load_file(Runtime& rt, const char* fname, const char* call, ModuleRec** out) {
  std::ifstream in(fname, std::ios::binary);
  if (!in) {
    rt.note(fmt::format("{}: cannot read {}", call, fname));
    return kCuFileNotFound;
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  data.push_back('\0');  // PTX text is read up to its terminator
  return load_image(rt, data.data(), fmt::format("{}(\"{}\")", call, fname), out);
}

/// Runs `body` under the runtime's lock after the context check; exceptions become error codes.
template <typename F>
CUresult locked(const char* api, F&& body, bool context = true) {
  if (CUresult e = context ? need_context() : need_init(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  if (rt.sticky != kSuccess) return rt.sticky;
  try {
    return body(rt);
  } catch (const Error& err) {
    rt.note(fmt::format("{}: {}", api, err.what()));
    bool sticky = false;
    return from_runtime(map_error(err, &sticky));
  }
}

ModuleRec* module_of(void* handle) {
  auto* m = static_cast<ModuleRec*>(handle);
  return driver_modules().count(m) ? m : nullptr;
}

KernelRec* kernel_of(Runtime& rt, const void* handle) { return rt.find_kernel(handle); }

CUresult get_function(void** fn, void* handle, const char* name) {
  return locked("cuModuleGetFunction", [&](Runtime& rt) -> CUresult {
    if (fn == nullptr || name == nullptr) return kCuInvalidValue;
    ModuleRec* m = module_of(handle);
    if (m == nullptr) return kCuInvalidHandle;
    if (cudaError_t e = rt.ensure_loaded(*m); e != kSuccess) return from_runtime(e);
    for (KernelRec* k : m->kernels) {
      if (k->name == name) {
        *fn = k;
        return kCuSuccess;
      }
    }
    return kCuNotFound;
  });
}

CUresult get_global(std::uint64_t* dptr, std::size_t* bytes, void* handle, const char* name) {
  return locked("cuModuleGetGlobal", [&](Runtime& rt) -> CUresult {
    if (name == nullptr) return kCuInvalidValue;
    ModuleRec* m = module_of(handle);
    if (m == nullptr) return kCuInvalidHandle;
    if (cudaError_t e = rt.ensure_loaded(*m); e != kSuccess) return from_runtime(e);
    DevicePtr at = 0;
    std::size_t size = 0;
    try {
      at = rt.device().symbol_address(*m->module, name);
      size = rt.device().symbol_size(*m->module, name);
    } catch (const Error&) {
      return kCuNotFound;
    }
    rt.symbol_ranges[at] = size;  // copies to and from it are device copies
    if (dptr != nullptr) *dptr = at;
    if (bytes != nullptr) *bytes = size;
    return kCuSuccess;
  });
}

/// The kernel's arguments: kernelParams as given, or pointers into the `extra` buffer
/// (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END) at each parameter's aligned offset.
CUresult marshal(Runtime& rt, KernelRec& k, void** params, void** extra, std::vector<void*>& out, void*** args) {
  if (cudaError_t e = rt.ensure_loaded(*k.module); e != kSuccess) return from_runtime(e);
  if (params != nullptr && extra != nullptr) return kCuInvalidValue;  // "both ... non-NULL: CUDA_ERROR_INVALID_VALUE"
  *args = params;
  if (extra == nullptr) return kCuSuccess;
  char* buffer = nullptr;
  const std::size_t* size = nullptr;
  for (std::size_t i = 0; extra[i] != nullptr; i += 2) {
    const auto key = reinterpret_cast<std::uintptr_t>(extra[i]);
    if (key == 1) buffer = static_cast<char*>(extra[i + 1]);                   // CU_LAUNCH_PARAM_BUFFER_POINTER
    else if (key == 2) size = static_cast<const std::size_t*>(extra[i + 1]);  // CU_LAUNCH_PARAM_BUFFER_SIZE
    else return kCuInvalidValue;
  }
  if (buffer == nullptr || size == nullptr) return k.params.empty() ? kCuSuccess : kCuInvalidValue;
  std::size_t offset = 0;
  out.clear();
  for (const ParamInfo& p : k.params) {
    const std::size_t align = std::max<std::size_t>(1, p.align);
    offset = (offset + align - 1) / align * align;
    out.push_back(buffer + offset);
    offset += p.size;
  }
  if (offset > *size) {
    rt.note(fmt::format("cuLaunchKernel of {}: the parameter buffer holds {} bytes, the parameters need {}",
                        demangle(k.name), *size, offset));
    return kCuInvalidValue;
  }
  *args = out.data();
  return kCuSuccess;
}

CUresult launch(const char* api, void* f, Dim3 grid, Dim3 block, unsigned shmem, void* stream, void** params,
                void** extra, bool per_thread, bool cooperative) {
  return locked(api, [&](Runtime& rt) -> CUresult {
    KernelRec* k = kernel_of(rt, f);
    if (k == nullptr) return kCuInvalidHandle;
    std::vector<void*> storage;
    void** args = nullptr;
    if (CUresult e = marshal(rt, *k, params, extra, storage, &args); e != kCuSuccess) return e;
    void* s = const_cast<void*>(canonical_stream(stream, per_thread));
    return via_runtime([&] {
      return cooperative ? cudaLaunchCooperativeKernel(k, grid, block, args, shmem, s)
                         : __cudaLaunchKernel(k, grid, block, args, shmem, s);
    });
  });
}

/// CUlaunchConfig.
struct CuLaunchConfig {
  unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared;
  void* stream;
  LaunchAttribute* attrs;
  unsigned num_attrs;
};

/// CUlaunchConfig as the runtime's cudaLaunchConfig_t (CUlaunchAttribute is cudaLaunchAttribute,
/// ids and values alike).
LaunchConfig runtime_config(const CuLaunchConfig& c, bool per_thread) {
  LaunchConfig config{};
  config.grid = Dim3{c.grid_x, c.grid_y, c.grid_z};
  config.block = Dim3{c.block_x, c.block_y, c.block_z};
  config.dynamic_smem = c.shared;
  config.stream = const_cast<void*>(canonical_stream(c.stream, per_thread));
  config.attrs = c.attrs;
  config.num_attrs = c.num_attrs;
  return config;
}

CUresult launch_ex(const CuLaunchConfig* c, void* f, void** params, void** extra, bool per_thread) {
  return locked("cuLaunchKernelEx", [&](Runtime& rt) -> CUresult {
    if (c == nullptr) return kCuInvalidValue;
    KernelRec* k = kernel_of(rt, f);
    if (k == nullptr) return kCuInvalidHandle;
    std::vector<void*> storage;
    void** args = nullptr;
    if (CUresult e = marshal(rt, *k, params, extra, storage, &args); e != kCuSuccess) return e;
    const LaunchConfig config = runtime_config(*c, per_thread);
    return via_runtime([&] { return cudaLaunchKernelExC(&config, k, args); });
  });
}

/// cuOccupancyMaxPotentialBlockSize(WithFlags): the block size with the most threads resident per
/// SM (of the kernel's largest, `limit` when it is lower, and each multiple of the warp below),
/// the largest such; `min_grid` the blocks of that size all SMs hold. `b2d` gives the dynamic
/// shared memory of a block size (else `shmem` for every size).
CUresult potential_block_size(int* min_grid, int* block, void* f, std::size_t (*b2d)(int), std::size_t shmem,
                              int limit, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (min_grid == nullptr || block == nullptr) return kCuInvalidValue;
  FuncAttributes a{};
  if (CUresult e = via_runtime([&] { return cudaFuncGetAttributes(&a, f); }); e != kCuSuccess) return e;
  const arch::Profile& p = Runtime::get().profile();
  const int most = limit > 0 ? std::min(limit, a.maxThreadsPerBlock) : a.maxThreadsPerBlock;
  int best_threads = 0, best_block = 0, best_blocks = 0;
  for (int size = most; size > 0; size = (size - 1) / 32 * 32) {
    int n = 0;
    const std::size_t smem = b2d != nullptr ? b2d(size) : shmem;
    if (CUresult e = via_runtime([&] {
          return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, size, smem, flags);
        });
        e != kCuSuccess)
      return e;
    if (n * size > best_threads) {
      best_threads = n * size;
      best_block = size;
      best_blocks = n;
    }
    if (best_threads >= static_cast<int>(p.max_threads_per_sm)) break;
  }
  *min_grid = best_blocks * static_cast<int>(p.sm_count);
  *block = best_block;
  return kCuSuccess;
}

CUresult func_attribute(int* value, int attr, void* f) {
  if (value == nullptr) return kCuInvalidValue;
  FuncAttributes a{};
  if (CUresult e = via_runtime([&] { return cudaFuncGetAttributes(&a, f); }); e != kCuSuccess) return e;
  switch (attr) {  // CUfunction_attribute
    case 0: *value = a.maxThreadsPerBlock; break;
    case 1: *value = static_cast<int>(a.sharedSizeBytes); break;
    case 2: *value = static_cast<int>(a.constSizeBytes); break;
    case 3: *value = static_cast<int>(a.localSizeBytes); break;
    case 4: *value = a.numRegs; break;
    case 5: *value = a.ptxVersion; break;
    case 6: *value = a.binaryVersion; break;
    case 7: *value = a.cacheModeCA; break;
    case 8: *value = a.maxDynamicSharedSizeBytes; break;
    case 9: *value = a.preferredShmemCarveout; break;
    case 10: *value = a.clusterDimMustBeSet; break;
    case 11: *value = a.requiredClusterWidth; break;
    case 12: *value = a.requiredClusterHeight; break;
    case 13: *value = a.requiredClusterDepth; break;
    case 14: *value = a.nonPortableClusterSizeAllowed; break;
    case 15: *value = a.clusterSchedulingPolicyPreference; break;
    default: return kCuInvalidValue;
  }
  return kCuSuccess;
}

CUresult param_info(void* f, std::size_t index, std::size_t* offset, std::size_t* size) {
  return locked("cuFuncGetParamInfo", [&](Runtime& rt) -> CUresult {
    KernelRec* k = kernel_of(rt, f);
    if (k == nullptr) return kCuInvalidHandle;
    if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return from_runtime(e);
    if (index >= k->params.size() || (offset == nullptr && size == nullptr)) return kCuInvalidValue;
    std::size_t at = 0;
    for (std::size_t i = 0; i <= index; ++i) {
      const std::size_t align = std::max<std::size_t>(1, k->params[i].align);
      at = (at + align - 1) / align * align;
      if (i < index) at += k->params[i].size;
    }
    if (offset != nullptr) *offset = at;
    if (size != nullptr) *size = k->params[index].size;
    return kCuSuccess;
  });
}

}  // namespace

ModuleRec* driver_module(void* handle) { return module_of(handle); }

}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Modules ------------------------------------------------------------------------------------

WS_DRV CUresult cuModuleLoad(void** module, const char* fname) {
  if (module == nullptr || fname == nullptr) return kCuInvalidValue;
  return locked("cuModuleLoad", [&](Runtime& rt) {
    return load_file(rt, fname, "cuModuleLoad", reinterpret_cast<ModuleRec**>(module));
  });
}

WS_DRV CUresult cuModuleLoadData(void** module, const void* image) {
  if (module == nullptr || image == nullptr) return kCuInvalidValue;
  return locked("cuModuleLoadData", [&](Runtime& rt) {
    return load_image(rt, image, module_name("cuModuleLoadData"), reinterpret_cast<ModuleRec**>(module));
  });
}

// JIT options (log buffers, optimisation level, ...) change nothing: the PTX is interpreted.
WS_DRV CUresult cuModuleLoadDataEx(void** module, const void* image, unsigned, void*, void**) {
  if (module == nullptr || image == nullptr) return kCuInvalidValue;
  return locked("cuModuleLoadDataEx", [&](Runtime& rt) {
    return load_image(rt, image, module_name("cuModuleLoadDataEx"), reinterpret_cast<ModuleRec**>(module));
  });
}

WS_DRV CUresult cuModuleLoadFatBinary(void** module, const void* fat) {
  if (module == nullptr || fat == nullptr) return kCuInvalidValue;
  return locked("cuModuleLoadFatBinary", [&](Runtime& rt) {
    return load_image(rt, fat, module_name("cuModuleLoadFatBinary"), reinterpret_cast<ModuleRec**>(module));
  });
}

// CUmoduleLoadingMode: CU_MODULE_EAGER_LOADING (1). A module's PTX is read and checked when it
// is loaded (NVIDIA's static runtime asks at initialisation).
WS_DRV CUresult cuModuleGetLoadingMode(int* mode) {
  if (mode == nullptr) return kCuInvalidValue;
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  *mode = 1;
  return kCuSuccess;
}

WS_DRV CUresult cuModuleUnload(void* module) {
  return locked("cuModuleUnload", [&](Runtime&) -> CUresult {
    ModuleRec* m = module_of(module);
    if (m == nullptr) return kCuInvalidHandle;
    driver_modules().erase(m);  // its records stay: a launch through a stale handle is not a crash
    return kCuSuccess;
  });
}

WS_DRV CUresult cuModuleGetFunction(void** fn, void* module, const char* name) { return get_function(fn, module, name); }

WS_DRV CUresult cuModuleGetGlobal_v2(std::uint64_t* dptr, std::size_t* bytes, void* module, const char* name) {
  return get_global(dptr, bytes, module, name);
}

WS_DRV CUresult cuModuleGetFunctionCount(unsigned* count, void* module) {
  return locked("cuModuleGetFunctionCount", [&](Runtime&) -> CUresult {
    ModuleRec* m = module_of(module);
    if (m == nullptr) return kCuInvalidHandle;
    if (count == nullptr) return kCuInvalidValue;
    *count = static_cast<unsigned>(m->kernels.size());
    return kCuSuccess;
  });
}

WS_DRV CUresult cuModuleEnumerateFunctions(void** fns, unsigned n, void* module) {
  return locked("cuModuleEnumerateFunctions", [&](Runtime&) -> CUresult {
    ModuleRec* m = module_of(module);
    if (m == nullptr) return kCuInvalidHandle;
    if (fns == nullptr || n < m->kernels.size()) return kCuInvalidValue;
    for (std::size_t i = 0; i < m->kernels.size(); ++i) fns[i] = m->kernels[i];
    return kCuSuccess;
  });
}

// ---- Libraries (context-independent modules: here the same record) ------------------------------

WS_DRV CUresult cuLibraryLoadData(void** library, const void* code, void*, void**, unsigned, void*, void**, unsigned) {
  if (library == nullptr || code == nullptr) return kCuInvalidValue;
  return locked("cuLibraryLoadData", [&](Runtime& rt) {
    return load_image(rt, code, module_name("cuLibraryLoadData"), reinterpret_cast<ModuleRec**>(library));
  }, false);  // a library needs no current context
}

WS_DRV CUresult cuLibraryLoadFromFile(void** library, const char* file, void*, void**, unsigned, void*, void**, unsigned) {
  if (library == nullptr || file == nullptr) return kCuInvalidValue;
  return locked("cuLibraryLoadFromFile", [&](Runtime& rt) {
    return load_file(rt, file, "cuLibraryLoadFromFile", reinterpret_cast<ModuleRec**>(library));
  }, false);
}

WS_DRV CUresult cuLibraryUnload(void* library) { return cuModuleUnload(library); }
WS_DRV CUresult cuLibraryGetKernel(void** kernel, void* library, const char* name) {
  return get_function(kernel, library, name);
}
WS_DRV CUresult cuLibraryGetModule(void** module, void* library) {
  return locked("cuLibraryGetModule", [&](Runtime&) -> CUresult {
    if (module == nullptr) return kCuInvalidValue;
    if (module_of(library) == nullptr) return kCuInvalidHandle;
    *module = library;
    return kCuSuccess;
  });
}
WS_DRV CUresult cuLibraryGetGlobal(std::uint64_t* dptr, std::size_t* bytes, void* library, const char* name) {
  return get_global(dptr, bytes, library, name);
}
WS_DRV CUresult cuLibraryGetKernelCount(unsigned* count, void* library) { return cuModuleGetFunctionCount(count, library); }
WS_DRV CUresult cuLibraryEnumerateKernels(void** kernels, unsigned n, void* library) {
  return cuModuleEnumerateFunctions(kernels, n, library);
}

// ---- Functions and kernels ----------------------------------------------------------------------

WS_DRV CUresult cuKernelGetFunction(void** fn, void* kernel) {
  return locked("cuKernelGetFunction", [&](Runtime& rt) -> CUresult {
    if (fn == nullptr) return kCuInvalidValue;
    KernelRec* k = kernel_of(rt, kernel);
    if (k == nullptr) return kCuInvalidHandle;
    *fn = k;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuKernelGetLibrary(void** library, void* kernel) {
  return locked("cuKernelGetLibrary", [&](Runtime& rt) -> CUresult {
    if (library == nullptr) return kCuInvalidValue;
    KernelRec* k = kernel_of(rt, kernel);
    if (k == nullptr || module_of(k->module) == nullptr) return kCuInvalidHandle;
    *library = k->module;
    return kCuSuccess;
  });
}
WS_DRV CUresult cuFuncGetModule(void** module, void* fn) { return cuKernelGetLibrary(module, fn); }

WS_DRV CUresult cuFuncGetName(const char** name, void* fn) {
  return locked("cuFuncGetName", [&](Runtime& rt) -> CUresult {
    if (name == nullptr) return kCuInvalidValue;
    KernelRec* k = kernel_of(rt, fn);
    if (k == nullptr) return kCuInvalidHandle;
    *name = k->name.c_str();
    return kCuSuccess;
  });
}
WS_DRV CUresult cuKernelGetName(const char** name, void* kernel) { return cuFuncGetName(name, kernel); }

WS_DRV CUresult cuFuncGetAttribute(int* value, int attr, void* fn) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return func_attribute(value, attr, fn);
}
WS_DRV CUresult cuKernelGetAttribute(int* value, int attr, void* kernel, int dev) {
  if (dev != 0) return kCuInvalidDevice;
  return cuFuncGetAttribute(value, attr, kernel);
}

// CUfunction_attribute numbers 8-15 are cudaFuncAttribute's; the others are read-only.
WS_DRV CUresult cuFuncSetAttribute(void* fn, int attr, int value) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaFuncSetAttribute(fn, attr, value); });
}
WS_DRV CUresult cuKernelSetAttribute(int attr, int value, void* kernel, int dev) {
  if (dev != 0) return kCuInvalidDevice;
  return cuFuncSetAttribute(kernel, attr, value);
}

WS_DRV CUresult cuFuncSetCacheConfig(void* fn, int config) {
  return locked("cuFuncSetCacheConfig", [&](Runtime& rt) -> CUresult {
    if (kernel_of(rt, fn) == nullptr) return kCuInvalidHandle;
    return config >= 0 && config <= 3 ? kCuSuccess : kCuInvalidValue;  // a preference: changes nothing
  });
}
WS_DRV CUresult cuKernelSetCacheConfig(void* kernel, int config, int dev) {
  if (dev != 0) return kCuInvalidDevice;
  return cuFuncSetCacheConfig(kernel, config);
}

WS_DRV CUresult cuFuncGetParamInfo(void* fn, std::size_t index, std::size_t* offset, std::size_t* size) {
  return param_info(fn, index, offset, size);
}
WS_DRV CUresult cuKernelGetParamInfo(void* kernel, std::size_t index, std::size_t* offset, std::size_t* size) {
  return param_info(kernel, index, offset, size);
}

WS_DRV CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, void* fn, int block_size,
                                                                     std::size_t shmem, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(
      [&] { return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, fn, block_size, shmem, flags); });
}
WS_DRV CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void* fn, int block_size, std::size_t shmem) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, fn, block_size, shmem, 0);
}

WS_DRV CUresult cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block, void* fn, std::size_t (*b2d)(int),
                                                 std::size_t shmem, int limit) {
  return potential_block_size(min_grid, block, fn, b2d, shmem, limit, 0);
}
WS_DRV CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid, int* block, void* fn, std::size_t (*b2d)(int),
                                                          std::size_t shmem, int limit, unsigned flags) {
  return potential_block_size(min_grid, block, fn, b2d, shmem, limit, flags);
}
WS_DRV CUresult cuOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, void* fn, int blocks, int block_size) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaOccupancyAvailableDynamicSMemPerBlock(bytes, fn, blocks, block_size); });
}
WS_DRV CUresult cuOccupancyMaxPotentialClusterSize(int* size, void* fn, const CuLaunchConfig* config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (config == nullptr) return kCuInvalidValue;
  const LaunchConfig c = runtime_config(*config, false);
  return via_runtime([&] { return cudaOccupancyMaxPotentialClusterSize(size, fn, &c); });
}
WS_DRV CUresult cuOccupancyMaxActiveClusters(int* count, void* fn, const CuLaunchConfig* config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (config == nullptr) return kCuInvalidValue;
  const LaunchConfig c = runtime_config(*config, false);
  return via_runtime([&] { return cudaOccupancyMaxActiveClusters(count, fn, &c); });
}

// ---- Launches -----------------------------------------------------------------------------------

WS_DRV CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                               unsigned shmem, void* stream, void** params, void** extra) {
  return launch("cuLaunchKernel", f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, shmem, stream, params, extra, false, false);
}
WS_DRV CUresult cuLaunchKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned shmem, void* stream, void** params, void** extra) {
  return launch("cuLaunchKernel", f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, shmem, stream, params, extra, true, false);
}

WS_DRV CUresult cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                          unsigned bz, unsigned shmem, void* stream, void** params) {
  return launch("cuLaunchCooperativeKernel", f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, shmem, stream, params, nullptr,
                false, true);
}
WS_DRV CUresult cuLaunchCooperativeKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                               unsigned by, unsigned bz, unsigned shmem, void* stream, void** params) {
  return launch("cuLaunchCooperativeKernel", f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, shmem, stream, params, nullptr,
                true, true);
}

WS_DRV CUresult cuLaunchKernelEx(const CuLaunchConfig* config, void* f, void** params, void** extra) {
  return launch_ex(config, f, params, extra, false);
}
WS_DRV CUresult cuLaunchKernelEx_ptsz(const CuLaunchConfig* config, void* f, void** params, void** extra) {
  return launch_ex(config, f, params, extra, true);
}
