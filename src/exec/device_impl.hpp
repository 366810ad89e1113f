// The state behind warpscope::Device (api.cpp, api_texture.cpp).
#pragma once

#include <cstdint>
#include <memory>

#include "exec/heap.hpp"
#include "exec/initcheck.hpp"
#include "exec/memory.hpp"
#include "exec/texture.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope {

struct Device::Impl {
  explicit Impl(DeviceOptions o) : options(o), memory(o.global_memory_bytes) {
    if (o.sanitize.initcheck) init = std::make_unique<exec::InitShadow>(exec::kHeapBase, memory.span());
  }
  ~Impl() { heap.reset(); }  // its blocks are allocations of `memory`
  DeviceOptions options;
  exec::GlobalMemory memory;
  std::unique_ptr<exec::DeviceHeap> heap;  // created at the first launch of a kernel that uses it
  bool printf_launched = false;
  exec::ObjectTable objects;
  AccessSink* sink = nullptr;
  std::unique_ptr<exec::InitShadow> init;  // initcheck's shadow (DeviceOptions::sanitize.initcheck)
  std::uint32_t launches = 0;
};

}  // namespace warpscope
