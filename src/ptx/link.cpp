#include "ptx/link.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "ptx/verifier.hpp"

namespace warpscope::ptx {

RuntimeFunction runtime_function(std::string_view name) {
  if (name == "vprintf") return RuntimeFunction::kVprintf;
  if (name == "__assertfail") return RuntimeFunction::kAssertFail;
  if (name == "malloc") return RuntimeFunction::kMalloc;
  if (name == "__cuda_syscall_aligned_malloc") return RuntimeFunction::kAlignedMalloc;
  if (name == "free") return RuntimeFunction::kFree;
  if (name == "cudaGraphSetConditional") return RuntimeFunction::kSetConditional;
  // Dynamic parallelism (cuda_device_runtime_api.h): CUDA 12+ names, then the CDP1 ones.
  std::string_view base = name;
  if (base.starts_with("__cudaCDP2")) base.remove_prefix(10);
  else if (base.starts_with("cuda")) base.remove_prefix(4);
  else return RuntimeFunction::kNone;
  if (base == "GetParameterBufferV2") return RuntimeFunction::kCdpParamBuffer;
  if (base == "GetParameterBuffer") return RuntimeFunction::kCdpParamBufferV1;
  if (base == "LaunchDeviceV2") return RuntimeFunction::kCdpLaunch;
  if (base == "LaunchDevice") return RuntimeFunction::kCdpLaunchV1;
  if (base == "GetLastError" || base == "PeekAtLastError" || base == "StreamDestroy" || base == "EventDestroy")
    return RuntimeFunction::kCdpNoError;
  if (base == "StreamCreateWithFlags") return RuntimeFunction::kCdpStreamCreate;
  if (base == "GetDevice") return RuntimeFunction::kCdpGetDevice;
  return RuntimeFunction::kNone;
}

bool device_runtime_name(std::string_view name) {
  return name.starts_with("__cudaCDP2") || name == "cudaDeviceSynchronize" || name == "cudaMalloc" ||
         name == "cudaFree" || name == "cudaMemcpyAsync" || name == "cudaMemsetAsync" ||
         name == "cudaDeviceGetAttribute" || name == "cudaStreamWaitEvent" || name == "cudaEventRecord" ||
         name == "cudaEventCreateWithFlags" || name == "cudaFuncGetAttributes" || name == "cudaGetDeviceCount" ||
         name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
}

namespace {

bool global_linkage(Linkage l) { return l == Linkage::kVisible || l == Linkage::kWeak || l == Linkage::kCommon; }

/// A variable that needs another module's definition.
bool extern_variable(const Variable& v) {
  return v.linkage == Linkage::kExtern && (v.space == StateSpace::kGlobal || v.space == StateSpace::kConst);
}

struct Def {
  bool function = false;
  std::size_t module = 0;
  std::uint32_t index = 0;
  Linkage linkage = Linkage::kVisible;
  std::uint64_t size = 0;
};

class Linker {
 public:
  Linker(std::vector<Module>& mods, std::string_view origin) : mods_(mods), origin_(origin) {
    vars_.resize(mods.size());
    fns_.resize(mods.size());
  }

  Module run() {
    collect_definitions();
    assign();
    if (!problems_.empty()) {
      std::string names;
      for (std::size_t i = 0; i < mods_.size(); ++i) names += (i ? ", " : "") + mods_[i].origin;
      std::string text;
      for (const std::string& p : problems_) text += (text.empty() ? "" : "; ") + p;
      fail(ErrorKind::kParse, "cannot link the device code of {} ({}): {}", origin_, names, text);
    }
    Module out = merge();
    verify(out);
    return out;
  }

 private:
  static constexpr std::uint32_t kUnset = kNone32;

  void problem(std::string text) {
    if (std::find(problems_.begin(), problems_.end(), text) == problems_.end()) problems_.push_back(std::move(text));
  }

  /// The table of global definitions; two strong ones of a name are a problem.
  void collect_definitions() {
    for (std::size_t m = 0; m < mods_.size(); ++m) {
      for (std::uint32_t i = 0; i < mods_[m].variables.size(); ++i) {
        const Variable& v = mods_[m].variables[i];
        if (v.linkage == Linkage::kExtern || !global_linkage(v.linkage)) continue;
        offer(Def{false, m, i, v.linkage, v.size}, v.name);
      }
      for (std::uint32_t i = 0; i < mods_[m].functions.size(); ++i) {
        const Function& f = mods_[m].functions[i];
        if (f.is_declaration || !global_linkage(f.linkage)) continue;
        offer(Def{true, m, i, f.linkage, 0}, f.name);
      }
    }
  }

  void offer(const Def& d, const std::string& name) {
    auto [it, inserted] = table_.try_emplace(name, d);
    if (inserted) return;
    Def& cur = it->second;
    if (cur.function != d.function) {
      problem(fmt::format("'{}' is a {} in {} and a {} in {}", name, cur.function ? "function" : "variable",
                          mods_[cur.module].origin, d.function ? "function" : "variable", mods_[d.module].origin));
      return;
    }
    const bool cur_strong = cur.linkage == Linkage::kVisible, new_strong = d.linkage == Linkage::kVisible;
    if (cur_strong && new_strong) {
      problem(fmt::format("'{}' is defined in both {} and {}", name, mods_[cur.module].origin, mods_[d.module].origin));
    } else if (new_strong) {
      cur = d;
    } else if (!cur_strong && cur.linkage == Linkage::kCommon && d.linkage == Linkage::kCommon && d.size > cur.size) {
      cur = d;
    }
  }

  const Def* lookup(const std::string& name) const {
    auto it = table_.find(name);
    return it == table_.end() ? nullptr : &it->second;
  }

  /// New indices for the entities kept, then the ones that alias another.
  void assign() {
    struct Alias {
      bool function;
      std::size_t module;
      std::uint32_t index;
      Def to;
    };
    std::vector<Alias> aliases;
    std::map<std::string, std::uint32_t> builtin_decl;  // interpreter functions: one declaration each
    std::map<std::string, std::set<std::string>> unresolved;  // "kind 'name'" -> declaring modules
    for (std::size_t m = 0; m < mods_.size(); ++m) {
      const Module& mod = mods_[m];
      vars_[m].assign(mod.variables.size(), kUnset);
      for (std::uint32_t i = 0; i < mod.variables.size(); ++i) {
        const Variable& v = mod.variables[i];
        if (extern_variable(v)) {
          const Def* d = lookup(v.name);
          if (d == nullptr || d->function) {
            unresolved[fmt::format("extern variable '{}'", v.name)].insert(mod.origin);
          } else {
            aliases.push_back(Alias{false, m, i, *d});
          }
          continue;
        }
        const Def* d = global_linkage(v.linkage) ? lookup(v.name) : nullptr;
        if (d != nullptr && !d->function && !(d->module == m && d->index == i)) {
          aliases.push_back(Alias{false, m, i, *d});  // a weak or common definition that lost
          continue;
        }
        vars_[m][i] = static_cast<std::uint32_t>(kept_vars_.size());
        kept_vars_.emplace_back(m, i);
      }
      fns_[m].assign(mod.functions.size(), kUnset);
      for (std::uint32_t i = 0; i < mod.functions.size(); ++i) {
        const Function& f = mod.functions[i];
        if (f.is_declaration) {
          // Its own module's definition first (a prototype), then another module's.
          std::optional<Def> to;
          for (std::uint32_t j = 0; j < mod.functions.size(); ++j) {
            if (!mod.functions[j].is_declaration && mod.functions[j].name == f.name) to = Def{true, m, j};
          }
          if (!to) {
            if (const Def* d = lookup(f.name); d != nullptr && d->function) to = *d;
          }
          if (to) {
            aliases.push_back(Alias{true, m, i, *to});
          } else if (runtime_function(f.name) != RuntimeFunction::kNone || device_runtime_name(f.name)) {
            // A device runtime call warpscope does not run is refused where it is called (decode.cpp).
            auto [it, fresh] = builtin_decl.try_emplace(f.name, static_cast<std::uint32_t>(kept_fns_.size()));
            if (fresh) kept_fns_.emplace_back(m, i);
            fns_[m][i] = it->second;
          } else {
            unresolved[fmt::format("extern function '{}'", f.name)].insert(mod.origin);
          }
          continue;
        }
        const Def* d = global_linkage(f.linkage) ? lookup(f.name) : nullptr;
        if (d != nullptr && d->function && !(d->module == m && d->index == i)) {
          aliases.push_back(Alias{true, m, i, *d});
          continue;
        }
        fns_[m][i] = static_cast<std::uint32_t>(kept_fns_.size());
        kept_fns_.emplace_back(m, i);
      }
    }
    for (const auto& [what, where] : unresolved) {
      std::string list;
      for (const std::string& w : where) list += (list.empty() ? "" : ", ") + w;
      problem(fmt::format("unresolved {} (declared in {}; no module defines it)", what, list));
    }
    // An alias may point at a definition that is itself an alias (a prototype of a weak
    // function that lost): resolve until nothing changes.
    for (bool changed = true; changed;) {
      changed = false;
      for (const Alias& a : aliases) {
        auto& table = a.function ? fns_ : vars_;
        std::uint32_t& self = table[a.module][a.index];
        const std::uint32_t to = table[a.to.module][a.to.index];
        if (self == kUnset && to != kUnset) {
          self = to;
          changed = true;
        }
      }
    }
    if (problems_.empty()) {
      for (const Alias& a : aliases) {
        if ((a.function ? fns_ : vars_)[a.module][a.index] == kUnset) {
          fail(ErrorKind::kInternal, "linking {}: symbol {} of {} resolves to nothing", origin_, a.index,
               mods_[a.module].origin);
        }
      }
    }
  }

  void remap(std::size_t m, SymbolRef& s) const {
    if (s.kind == SymbolKind::kModuleVar && s.index < vars_[m].size()) s.index = vars_[m][s.index];
    else if (s.kind == SymbolKind::kFunction && s.index < fns_[m].size()) s.index = fns_[m][s.index];
  }

  void remap(std::size_t m, SourceLoc& l) const {
    if (l.file != kNone32) l.file += file_base_[m];
    if (l.inlined_at != kNone32) l.inlined_at += site_base_[m];
  }

  void remap(std::size_t m, Operand& o) const {
    remap(m, o.symbol);
    for (Operand& e : o.elements) remap(m, e);
  }

  void remap(std::size_t m, Variable& v) const {
    for (Relocation& r : v.relocations) remap(m, r.symbol);
  }

  Module merge() {
    Module out;
    out.origin = std::string(origin_);
    out.address_size = 64;
    for (std::size_t m = 0; m < mods_.size(); ++m) {
      const Module& mod = mods_[m];
      if (std::tie(mod.version_major, mod.version_minor) > std::tie(out.version_major, out.version_minor)) {
        out.version_major = mod.version_major;
        out.version_minor = mod.version_minor;
      }
      if (out.target.empty()) out.target = mod.target;
      file_base_.push_back(static_cast<std::uint32_t>(out.files.size()));
      site_base_.push_back(static_cast<std::uint32_t>(out.inline_sites.size()));
      out.files.insert(out.files.end(), mod.files.begin(), mod.files.end());
      out.inline_sites.insert(out.inline_sites.end(), mod.inline_sites.begin(), mod.inline_sites.end());
    }
    for (std::size_t m = 0; m < mods_.size(); ++m) {
      for (std::size_t s = 0; s < mods_[m].inline_sites.size(); ++s) remap(m, out.inline_sites[site_base_[m] + s].call_site);
    }
    for (const auto& [m, i] : kept_vars_) {
      Variable v = std::move(mods_[m].variables[i]);
      remap(m, v);
      out.variables.push_back(std::move(v));
    }
    for (const auto& [m, i] : kept_fns_) {
      Function f = std::move(mods_[m].functions[i]);
      if (f.origin.empty()) f.origin = mods_[m].origin;
      remap(m, f.loc);
      for (Variable& v : f.variables) remap(m, v);
      for (Instruction& in : f.instructions) {
        remap(m, in.loc);
        for (Operand& o : in.operands) remap(m, o);
        remap(m, in.dest2);
        for (Operand& o : in.call_results) remap(m, o);
        for (Operand& o : in.call_args) remap(m, o);
      }
      out.functions.push_back(std::move(f));
    }
    return out;
  }

  std::vector<Module>& mods_;
  std::string_view origin_;
  std::map<std::string, Def> table_;
  std::vector<std::vector<std::uint32_t>> vars_, fns_;  // per module: old index -> new index
  std::vector<std::pair<std::size_t, std::uint32_t>> kept_vars_, kept_fns_;
  std::vector<std::uint32_t> file_base_, site_base_;
  std::vector<std::string> problems_;
};

}  // namespace

Module link_modules(std::vector<Module> modules, std::string_view origin) {
  if (modules.empty()) fail(ErrorKind::kUsage, "cannot link {}: no PTX modules", origin);
  return Linker(modules, origin).run();
}

}  // namespace warpscope::ptx
