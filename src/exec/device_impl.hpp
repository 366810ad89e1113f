// The state behind warpscope::Device (api.cpp, api_texture.cpp).
#pragma once

#include <cstdint>

#include "exec/memory.hpp"
#include "exec/texture.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope {

struct Device::Impl {
  explicit Impl(DeviceOptions o) : options(o), memory(o.global_memory_bytes) {}
  DeviceOptions options;
  exec::GlobalMemory memory;
  exec::ObjectTable objects;
  AccessSink* sink = nullptr;
  std::uint32_t launches = 0;
};

}  // namespace warpscope
