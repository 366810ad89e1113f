// The public warpscope API (include/warpscope/warpscope.hpp) implemented on a real GPU with the
// CUDA driver API: PTX is JIT-compiled by the driver, memory is cuMemAlloc'd, kernels run on the
// hardware. It exists to check the corpus itself -- that its kernels, launch arguments, CPU
// references and tolerances agree with what a GPU computes -- and is built only by the
// standalone project in this folder, never by the warpscope build.
#include <cuda.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "warpscope/warpscope.hpp"

namespace warpscope {

namespace {

void check(CUresult result, const std::string& what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  throw Error(ErrorKind::kInternal, what + ": " + (name ? name : "?") + " (" +
                                        (text ? text : "?") + ")");
}

// Size of one PTX parameter declaration such as ".param .u64 .ptr .align 1 k_param_0" or
// ".param .align 16 .b8 k_param_2[16]".
std::size_t param_size(const std::string& decl, std::size_t* align) {
  std::smatch m;
  *align = 1;
  if (std::regex_search(decl, m, std::regex(R"(\.align\s+(\d+))"))) *align = std::stoul(m[1]);
  if (std::regex_search(decl, m, std::regex(R"(\[(\d+)\])"))) return std::stoul(m[1]);
  if (std::regex_search(decl, m, std::regex(R"(\.[busf](8|16|32|64)\b)"))) {
    const std::size_t bytes = std::stoul(m[1]) / 8;
    *align = std::max(*align, bytes);
    return bytes;
  }
  throw Error(ErrorKind::kParse, "cannot size PTX parameter: " + decl);
}

}  // namespace

struct Module::Impl {
  CUmodule module = nullptr;
  std::vector<std::string> names;
  std::map<std::string, std::vector<ParamInfo>, std::less<>> params;
  ~Impl() {
    if (module != nullptr) cuModuleUnload(module);
  }
};

std::vector<std::string> Module::kernels() const { return impl_->names; }

std::vector<ParamInfo> Module::params(std::string_view kernel) const {
  auto it = impl_->params.find(kernel);
  if (it == impl_->params.end()) {
    throw Error(ErrorKind::kUsage, "no kernel named " + std::string(kernel));
  }
  return it->second;
}

struct Device::Impl {
  DeviceOptions options;
  CUdevice device = 0;
  CUcontext context = nullptr;
};

Device::Device(DeviceOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&impl_->device, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&impl_->context, impl_->device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(impl_->context), "cuCtxSetCurrent");
}

Device::~Device() {
  cuCtxSynchronize();
  cuDevicePrimaryCtxRelease(impl_->device);
}

Module Device::load_ptx(std::string_view ptx_text, std::string_view origin) {
  auto impl = std::make_shared<Module::Impl>();
  const std::string text(ptx_text);
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
  const CUresult result = cuModuleLoadDataEx(&impl->module, text.c_str(), 2, options, values);
  if (result != CUDA_SUCCESS) {
    throw Error(ErrorKind::kParse, std::string(origin) + ": " + log);
  }
  // Kernel names and parameter lists, from the .entry declarations.
  const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    std::vector<ParamInfo> list;
    const std::string body = (*it)[2];
    const std::regex param(R"(\.param[^,]*)");
    for (auto p = std::sregex_iterator(body.begin(), body.end(), param);
         p != std::sregex_iterator(); ++p) {
      ParamInfo info;
      const std::string decl = p->str();
      info.size = param_size(decl, &info.align);
      std::smatch m;
      if (std::regex_search(decl, m, std::regex(R"(([\w$]+)(\[\d+\])?\s*$)"))) info.name = m[1];
      list.push_back(info);
    }
    impl->names.push_back(name);
    impl->params.emplace(name, std::move(list));
  }
  Module module;
  module.impl_ = impl;
  return module;
}

DevicePtr Device::malloc(std::size_t bytes) {
  CUdeviceptr ptr = 0;
  check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  return ptr;
}

void Device::free(DevicePtr ptr) { check(cuMemFree(ptr), "cuMemFree"); }

void Device::copy_to_device(DevicePtr dst, const void* src, std::size_t bytes) {
  check(cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

void Device::copy_to_host(void* dst, DevicePtr src, std::size_t bytes) {
  check(cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

void Device::copy_on_device(DevicePtr dst, DevicePtr src, std::size_t bytes) {
  check(cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

void Device::memset(DevicePtr dst, int value, std::size_t bytes) {
  check(cuMemsetD8(dst, static_cast<unsigned char>(value), bytes), "cuMemsetD8");
}

DevicePtr Device::symbol_address(const Module& module, std::string_view name) const {
  CUdeviceptr ptr = 0;
  std::size_t size = 0;
  check(cuModuleGetGlobal(&ptr, &size, module.impl_->module, std::string(name).c_str()),
        "cuModuleGetGlobal " + std::string(name));
  return ptr;
}

std::size_t Device::symbol_size(const Module& module, std::string_view name) const {
  CUdeviceptr ptr = 0;
  std::size_t size = 0;
  check(cuModuleGetGlobal(&ptr, &size, module.impl_->module, std::string(name).c_str()),
        "cuModuleGetGlobal " + std::string(name));
  return size;
}

void Device::copy_to_symbol(const Module& module, std::string_view name, const void* src,
                            std::size_t bytes, std::size_t offset) {
  if (offset + bytes > symbol_size(module, name)) {
    throw Error(ErrorKind::kOutOfBounds, "copy_to_symbol past the end of " + std::string(name));
  }
  copy_to_device(symbol_address(module, name) + offset, src, bytes);
}

void Device::copy_from_symbol(void* dst, const Module& module, std::string_view name,
                              std::size_t bytes, std::size_t offset) {
  if (offset + bytes > symbol_size(module, name)) {
    throw Error(ErrorKind::kOutOfBounds, "copy_from_symbol past the end of " + std::string(name));
  }
  copy_to_host(dst, symbol_address(module, name) + offset, bytes);
}

LaunchStats Device::launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                           std::span<const KernelArg> args, std::size_t dynamic_shared_bytes) {
  LaunchOptions options;
  options.dynamic_shared_bytes = dynamic_shared_bytes;
  return launch(module, kernel, grid, block, args, options);
}

// cuLaunchKernelEx with the options a GPU has: dynamic shared memory, a cooperative launch and a
// thread-block cluster (the interpreter's stop, progress, sampling and sanitizer hooks are not).
LaunchStats Device::launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                           std::span<const KernelArg> args, const LaunchOptions& options) {
  const Dim3 c = options.cluster;
  const bool cluster = options.explicit_cluster || c.x != 1 || c.y != 1 || c.z != 1;
  if (cluster && (grid.x % c.x != 0 || grid.y % c.y != 0 || grid.z % c.z != 0)) {
    throw Error(ErrorKind::kUsage, std::string(kernel) +
                                       ": the grid must be a multiple of the cluster in each dimension");
  }
  const std::vector<ParamInfo> params = module.params(kernel);
  if (params.size() != args.size()) {
    throw Error(ErrorKind::kUsage, std::string(kernel) + ": " + std::to_string(args.size()) +
                                       " arguments for " + std::to_string(params.size()) +
                                       " parameters");
  }
  std::vector<void*> values;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].size != params[i].size) {
      throw Error(ErrorKind::kUsage, std::string(kernel) + ": argument " + std::to_string(i) +
                                         " has " + std::to_string(args[i].size) +
                                         " bytes, the parameter " +
                                         std::to_string(params[i].size));
    }
    values.push_back(const_cast<void*>(args[i].data));
  }
  CUfunction function = nullptr;
  check(cuModuleGetFunction(&function, module.impl_->module, std::string(kernel).c_str()),
        "cuModuleGetFunction");

  // Device printf goes to the process's stdout when the context synchronises; capture it.
  std::ostream* capture = impl_->options.printf_output;
  std::FILE* file = nullptr;
  int saved = -1;
  if (capture != nullptr) {
    std::fflush(stdout);
    file = std::tmpfile();
    saved = dup(1);
    dup2(fileno(file), 1);
  }
  if (options.dynamic_shared_bytes > 48 * 1024) {
    check(cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(options.dynamic_shared_bytes)),
          "cuFuncSetAttribute");
  }
  CUlaunchAttribute attributes[2] = {};
  unsigned count = 0;
  if (cluster) {
    attributes[count].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attributes[count].value.clusterDim.x = c.x;
    attributes[count].value.clusterDim.y = c.y;
    attributes[count].value.clusterDim.z = c.z;
    ++count;
  }
  if (options.cooperative) {
    attributes[count].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attributes[count].value.cooperative = 1;
    ++count;
  }
  CUlaunchConfig config = {};
  config.gridDimX = grid.x;
  config.gridDimY = grid.y;
  config.gridDimZ = grid.z;
  config.blockDimX = block.x;
  config.blockDimY = block.y;
  config.blockDimZ = block.z;
  config.sharedMemBytes = static_cast<unsigned>(options.dynamic_shared_bytes);
  config.attrs = count > 0 ? attributes : nullptr;
  config.numAttrs = count;
  const CUresult launched = cuLaunchKernelEx(&config, function, values.data(), nullptr);
  const CUresult synced = launched == CUDA_SUCCESS ? cuCtxSynchronize() : launched;
  if (capture != nullptr) {
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::rewind(file);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
      capture->write(buffer, static_cast<std::streamsize>(n));
    }
    std::fclose(file);
  }
  check(synced, "launch of " + std::string(kernel));
  return LaunchStats{};
}

void Device::set_access_sink(AccessSink*) {}

}  // namespace warpscope
