#include "common/host_backtrace.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/elf_file.hpp"

namespace warpscope {

namespace {

struct FuncSym {
  std::uint64_t lo = 0, hi = 0;  // [lo, hi) in the module's ELF addresses
  std::string name;              // mangled
};

/// One loaded module: its display name, its path and its functions from the static symbol table.
struct Module {
  std::string name, path;
  std::vector<FuncSym> funcs;  // sorted by lo
};

std::string demangle(const std::string& s) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(s.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : s;
}

Module load_module(const std::string& path, const std::string& display) {
  Module m;
  m.name = display;
  m.path = path;
  try {
    const std::vector<std::uint8_t> bytes = read_file_bytes(path);
    const ElfFile elf(bytes, path);
    for (const ElfSymbol& s : elf.symtab()) {
      if ((s.info & 0xf) != 2 || s.section == 0 || s.name.empty()) continue;  // STT_FUNC, defined
      m.funcs.push_back({s.value, s.value + std::max<std::uint64_t>(s.size, 1), s.name});
    }
  } catch (...) {
    // No readable symbol table: dladdr's dynamic symbols name what they can.
  }
  std::sort(m.funcs.begin(), m.funcs.end(), [](const FuncSym& a, const FuncSym& b) { return a.lo < b.lo; });
  return m;
}

class Symbolizer {
 public:
  HostFrame frame(std::uintptr_t ret) {
    std::lock_guard lock(mu_);
    if (auto it = frames_.find(ret); it != frames_.end()) return it->second;
    HostFrame f = resolve(ret);
    frames_.emplace(ret, f);
    return f;
  }
  /// The load base (dli_fbase) of the module that holds `p`, or 0.
  static std::uintptr_t base_of(const void* p) {
    Dl_info info{};
    if (dladdr(p, &info) == 0) return 0;
    return reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  }
  /// Whether `p` lies in the program itself (not in a shared library).
  static bool is_program(const void* p) {
    Dl_info info{};
    link_map* lm = nullptr;
    if (dladdr1(p, &info, reinterpret_cast<void**>(&lm), RTLD_DL_LINKMAP) == 0 || lm == nullptr) return true;
    return lm->l_name == nullptr || lm->l_name[0] == '\0';
  }

 private:
  HostFrame resolve(std::uintptr_t ret) {
    HostFrame f;
    Dl_info info{};
    link_map* lm = nullptr;
    // A return address may be one past a call that ends its function: look up the call itself.
    const auto pc = ret - 1;
    if (dladdr1(reinterpret_cast<const void*>(pc), &info, reinterpret_cast<void**>(&lm), RTLD_DL_LINKMAP) == 0 ||
        lm == nullptr) {
      f.offset = ret;
      return f;
    }
    const std::uintptr_t bias = lm->l_addr;
    f.offset = ret - bias;
    const bool program = lm->l_name == nullptr || lm->l_name[0] == '\0';
    auto it = modules_.find(bias);
    if (it == modules_.end()) {
      std::error_code ec;
      const std::string path = program ? std::filesystem::read_symlink("/proc/self/exe", ec).string() : lm->l_name;
      it = modules_.emplace(bias, load_module(path, std::filesystem::path(path).filename().string())).first;
    }
    const Module& m = it->second;
    f.module = m.name;
    f.path = m.path;
    const std::uint64_t at = pc - bias;
    auto s = std::upper_bound(m.funcs.begin(), m.funcs.end(), at, [](std::uint64_t v, const FuncSym& x) { return v < x.lo; });
    if (s != m.funcs.begin() && at < std::prev(s)->hi) {
      f.function = demangle(std::prev(s)->name);
    } else if (info.dli_sname != nullptr) {
      f.function = demangle(info.dli_sname);
    }
    return f;
  }

  std::mutex mu_;
  std::map<std::uintptr_t, Module> modules_;  // by load bias
  std::unordered_map<std::uintptr_t, HostFrame> frames_;
};

Symbolizer& symbolizer() {
  static Symbolizer* s = new Symbolizer;  // never destroyed: used at exit by the runtime's teardown
  return *s;
}

bool warpscope_own(const std::string& name) {
  return name.find("warpscope::") != std::string::npos || name.rfind("std::", 0) == 0 ||
         name.rfind("void std::", 0) == 0;
}

}  // namespace

HostFrame host_frame(std::uintptr_t return_address) { return symbolizer().frame(return_address); }

std::vector<HostFrame> host_backtrace(const void* self, std::size_t max_frames) {
  std::vector<void*> raw(max_frames + 64);
  const auto n = static_cast<std::size_t>(std::max(0, backtrace(raw.data(), static_cast<int>(raw.size()))));
  auto at = [&](std::size_t k) { return reinterpret_cast<std::uintptr_t>(raw[k]); };
  std::size_t first = 0;
  if (!Symbolizer::is_program(self)) {
    // The leading frames in warpscope's library.
    const std::uintptr_t self_base = Symbolizer::base_of(self);
    while (first < n && Symbolizer::base_of(reinterpret_cast<const void*>(at(first) - 1)) == self_base) ++first;
  } else {
    // warpscope's runtime inside the program: its frames by name, then the API entry.
    while (first < n && warpscope_own(host_frame(at(first)).function)) ++first;
    if (first > 0 && first < n) ++first;
  }
  std::vector<HostFrame> out;
  for (std::size_t k = first; k < n && out.size() < max_frames; ++k) {
    out.push_back(host_frame(at(k)));
    if (out.back().function == "main") break;
  }
  return out;
}

}  // namespace warpscope
