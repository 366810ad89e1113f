// Helpers for the interpreter tests: the PTX nvcc made of tests/exec/kernels/*.cu, device
// buffers, and a sink that keeps every record.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/access.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec::test {

/// The PTX of tests/exec/kernels/<name>.cu; skips the test when nvcc was not available.
inline std::string kernel_ptx(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(WARPSCOPE_EXEC_PTX_DIR) / (name + ".ptx");
  std::ifstream f(p);
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

#define WS_LOAD_PTX(var, name)                                              \
  const std::string var = ::warpscope::exec::test::kernel_ptx(name);       \
  if (var.empty()) GTEST_SKIP() << "no PTX for " << name << " (nvcc missing?)"

/// A device buffer initialised from a host vector.
template <class T>
DevicePtr upload(Device& dev, const std::vector<T>& v) {
  const DevicePtr p = dev.malloc(v.size() * sizeof(T));
  dev.copy_to_device(p, v.data(), v.size() * sizeof(T));
  return p;
}
template <class T>
std::vector<T> download(Device& dev, DevicePtr p, std::size_t n) {
  std::vector<T> v(n);
  dev.copy_to_host(v.data(), p, n * sizeof(T));
  return v;
}

class RecordingSink : public AccessSink {
 public:
  void on_access(const WarpAccess& a) override { records.push_back(a); }
  std::vector<WarpAccess> records;
};

}  // namespace warpscope::exec::test
