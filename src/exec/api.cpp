// The public API (include/warpscope/warpscope.hpp) on top of the interpreter.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/decode.hpp"
#include "exec/device_impl.hpp"
#include "exec/fault.hpp"
#include "exec/heap.hpp"
#include "exec/launch.hpp"
#include "exec/memory.hpp"
#include "ptx/link.hpp"
#include "exec/texture.hpp"
#include "ptx/ptx.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope {

namespace {

constexpr std::uint64_t kMaxThreadsPerBlock = 1024;
constexpr std::uint64_t kMaxSharedPerBlock = 227 * 1024;  // H100 opt-in limit
// All CTAs of a cooperative launch are resident in the host's memory at once. A GPU allows
// (blocks per SM) x (SMs) of them: 4224 on an H100 at most.
constexpr std::uint64_t kMaxCooperativeCtas = 65536;

}  // namespace

// Device::Impl: exec/device_impl.hpp


struct Module::Impl {
  const void* owner = nullptr;  // the Device::Impl that loaded it
  ptx::Module ir;
  std::vector<std::unique_ptr<exec::KernelImage>> kernels;
  std::map<std::string, std::size_t, std::less<>> kernel_index;
  std::vector<std::uint64_t> var_addr;
  struct Symbol {
    std::uint64_t addr = 0;
    std::uint64_t size = 0;
  };
  std::map<std::string, Symbol, std::less<>> symbols;
  // The module's .texref/.surfref variables: handle and whether a surface reference.
  std::map<std::string, std::pair<std::uint64_t, bool>, std::less<>> references;
  // Names two internal variables of linked modules share (nvcc's `$str`): not found by name.
  std::map<std::string, std::size_t, std::less<>> ambiguous;
  // Module::instructions, made once per kernel (launches ask for it every time).
  mutable std::mutex code_mutex;
  mutable std::map<std::string, std::unique_ptr<const std::vector<InstructionInfo>>, std::less<>> code;
  // Lists replaced by the setters below stay alive: a caller may still hold a reference.
  std::vector<std::unique_ptr<const std::vector<InstructionInfo>>> retired;
  void forget_code(std::string_view name) {
    const std::lock_guard lock(code_mutex);
    if (auto it = code.find(name); it != code.end()) {
      retired.push_back(std::move(it->second));
      code.erase(it);
    }
  }

  const exec::KernelImage& kernel(std::string_view name) const {
    auto it = kernel_index.find(name);
    if (it == kernel_index.end()) fail(ErrorKind::kUsage, "module {} has no kernel named '{}'", ir.origin, name);
    return *kernels[it->second];
  }
  const Symbol& symbol(std::string_view name) const {
    auto it = symbols.find(name);
    if (it == symbols.end() && ambiguous.count(name)) {
      fail(ErrorKind::kUsage, "module {} has {} internal variables named '{}' (from different linked modules)",
           ir.origin, ambiguous.find(name)->second, name);
    }
    if (it == symbols.end()) {
      fail(ErrorKind::kUsage, "module {} has no .global or .const variable named '{}'", ir.origin, name);
    }
    return it->second;
  }
};

// --- Module ---------------------------------------------------------------------------------------

std::vector<std::string> Module::kernels() const {
  std::vector<std::string> names;
  if (!impl_) return names;
  for (const auto& k : impl_->kernels) names.push_back(k->name);
  return names;
}

std::uint64_t Module::reference(std::string_view name, bool surface) const {
  if (!impl_) return 0;
  auto it = impl_->references.find(name);
  return it == impl_->references.end() || it->second.second != surface ? 0 : it->second.first;
}

std::vector<ParamInfo> Module::params(std::string_view kernel) const {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  return impl_->kernel(kernel).params;
}

Dim3 Module::required_cluster(std::string_view kernel) const {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  const auto& d = impl_->kernel(kernel).ir_function(0).reqnctapercluster;
  if (d[0] == 0) return Dim3{0, 0, 0};
  return Dim3{d[0], std::max(d[1], 1u), std::max(d[2], 1u)};
}

const std::vector<InstructionInfo>& Module::instructions(std::string_view kernel) const {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  const exec::KernelImage& k = impl_->kernel(kernel);
  const std::lock_guard lock(impl_->code_mutex);
  if (auto it = impl_->code.find(kernel); it != impl_->code.end()) return *it->second;
  auto made = std::make_unique<std::vector<InstructionInfo>>();
  std::vector<InstructionInfo>& out = *made;
  out.reserve(k.code.size());
  for (std::uint32_t pc = 0; pc < k.code.size(); ++pc) {
    const exec::InstSource& src = k.source[pc];
    const ptx::Function& fn = k.ir_function(src.func);
    InstructionInfo info;
    info.function = fn.name;
    info.index = src.index;
    if (src.index < fn.instructions.size()) {
      const ptx::Instruction& ins = fn.instructions[src.index];
      info.ptx_line = ins.ptx.line;
      const ptx::SourceLoc loc = k.module->outermost(ins.loc);
      if (loc.valid()) {
        info.file = std::string(k.module->file_path(loc));
        info.line = loc.line;
      }
      const bool implicit = pc + 1 == k.funcs[src.func].end && k.code[pc].ctl == exec::Ctl::kRet &&
                            (pc == k.funcs[src.func].begin || k.source[pc - 1].index == src.index);
      info.text = implicit ? "ret; // implicit" : ptx::format_instruction(*k.module, fn, ins);
    }
    const exec::Inst& in = k.code[pc];
    if (in.ctl == exec::Ctl::kBra && in.target != exec::kNoPc) info.branch_target = in.target;
    info.guarded = in.guard != exec::kNoSlot;
    info.plain = exec::computes_only(in.ctl) || in.ctl == exec::Ctl::kWarpSync || in.ctl == exec::Ctl::kWait;
    info.exits = in.ctl == exec::Ctl::kRet || in.ctl == exec::Ctl::kExit || in.ctl == exec::Ctl::kTrap;
    info.local_access = in.width != 0 && in.space == Space::kLocal;
    out.push_back(std::move(info));
  }
  for (const CompiledAccess& c : k.compiled) {
    InstructionInfo info = out[c.anchor];
    info.text = c.text;
    info.branch_target = -1;
    info.compiled = true;
    info.local_access = true;
    out.push_back(std::move(info));
  }
  const std::vector<InstructionInfo>& result = *made;
  impl_->code.emplace(std::string(kernel), std::move(made));
  return result;
}

void Module::set_compiled_accesses(std::string_view kernel, std::vector<CompiledAccess> accesses) {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  impl_->kernel(kernel);  // the error for an unknown name
  impl_->forget_code(kernel);
  exec::set_compiled_accesses(*impl_->kernels[impl_->kernel_index.find(kernel)->second], std::move(accesses));
}

void Module::set_record_widths(std::string_view kernel, std::vector<RecordWidth> widths) {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  impl_->kernel(kernel);
  impl_->forget_code(kernel);
  exec::set_record_widths(*impl_->kernels[impl_->kernel_index.find(kernel)->second], std::move(widths));
}

void Module::set_lane_groupings(std::string_view kernel, std::vector<LaneGrouping> groupings) {
  if (!impl_) fail(ErrorKind::kUsage, "empty module");
  impl_->kernel(kernel);
  impl_->forget_code(kernel);
  exec::set_lane_groupings(*impl_->kernels[impl_->kernel_index.find(kernel)->second], std::move(groupings));
}

// --- Device ---------------------------------------------------------------------------------------

Device::Device(DeviceOptions options) : impl_(std::make_unique<Impl>(options)) {}
Device::~Device() = default;

Module Device::load_ptx(std::string_view ptx_text, std::string_view origin) {
  const PtxSource one{ptx_text, origin};
  return link_ptx(std::span<const PtxSource>(&one, 1), origin);
}

Module Device::link_ptx(std::span<const PtxSource> sources, std::string_view origin) {
  auto impl = std::make_shared<Module::Impl>();
  impl->owner = impl_.get();
  std::vector<ptx::Module> parts;
  parts.reserve(sources.size());
  for (const PtxSource& s : sources) parts.push_back(ptx::load_module(s.text, s.origin));
  impl->ir = ptx::link_modules(std::move(parts), origin);
  const ptx::Module& m = impl->ir;
  std::vector<std::uint64_t> allocated;
  try {
    // Module-scope .global and .const variables live in the global address space.
    impl->var_addr.assign(m.variables.size(), 0);
    for (std::size_t i = 0; i < m.variables.size(); ++i) {
      const ptx::Variable& v = m.variables[i];
      if (v.space != ptx::StateSpace::kGlobal && v.space != ptx::StateSpace::kConst) continue;
      if (v.opaque != ptx::OpaqueKind::kNone) {
        // A .texref/.surfref is no memory: its value (what the kernels' tex and suld through it and
        // mov of it read) is its reference's handle in the object table, unbound until the driver
        // binds it (Device::bind_texture_reference).
        const bool surface = v.opaque == ptx::OpaqueKind::kSurfRef;
        impl->var_addr[i] = impl_->objects.add_reference(
            surface ? exec::TexObject::Kind::kSurface : exec::TexObject::Kind::kTexture, v.name);
        impl->references[v.name] = {impl->var_addr[i], surface};
        continue;
      }
      const std::uint64_t bytes = v.size ? v.size : 1;
      const std::uint64_t addr = impl_->memory.allocate(bytes, v.name, v.space == ptx::StateSpace::kConst);
      allocated.push_back(addr);
      impl->var_addr[i] = addr;
      if (impl->ambiguous.count(v.name)) {
        ++impl->ambiguous[v.name];
      } else if (!impl->symbols.emplace(v.name, Module::Impl::Symbol{addr, v.size}).second) {
        impl->symbols.erase(v.name);
        impl->ambiguous[v.name] = 2;
      }
      if (v.has_init && !v.init.empty()) {
        std::memcpy(impl_->memory.host_range(addr, std::min<std::uint64_t>(v.init.size(), bytes), v.name.c_str()),
                    v.init.data(), std::min<std::uint64_t>(v.init.size(), bytes));
      }
    }
    for (std::size_t i = 0; i < m.variables.size(); ++i) {
      const ptx::Variable& v = m.variables[i];
      if (impl->var_addr[i] == 0 || v.opaque != ptx::OpaqueKind::kNone) continue;
      for (const ptx::Relocation& r : v.relocations) {
        std::uint64_t target = 0;
        if (r.symbol.kind == ptx::SymbolKind::kModuleVar && r.symbol.index < m.variables.size()) {
          target = impl->var_addr[r.symbol.index];
        } else if (r.symbol.kind == ptx::SymbolKind::kFunction) {
          target = exec::kFunctionAddressBase + std::uint64_t(r.symbol.index) * 16;
        }
        const std::uint64_t value = target + static_cast<std::uint64_t>(r.addend);
        if (r.offset + r.bytes <= v.size) {
          std::memcpy(impl_->memory.host_range(impl->var_addr[i] + r.offset, r.bytes, v.name.c_str()), &value,
                      r.bytes > 8 ? 8 : r.bytes);
        }
      }
    }
    for (std::uint32_t f = 0; f < m.functions.size(); ++f) {
      const ptx::Function& fn = m.functions[f];
      if (fn.kind != ptx::FunctionKind::kEntry || fn.is_declaration) continue;
      if (impl->kernel_index.count(fn.name)) {
        fail(ErrorKind::kUsage, "{}: two kernels named '{}' (internal .entry functions of linked modules)", m.origin,
             fn.name);
      }
      impl->kernel_index[fn.name] = impl->kernels.size();
      impl->kernels.push_back(exec::decode_kernel(m, f, impl->var_addr));
    }
  } catch (...) {
    for (std::uint64_t a : allocated) impl_->memory.release(a);
    throw;
  }
  Module mod;
  mod.impl_ = std::move(impl);
  return mod;
}

DevicePtr Device::malloc(std::size_t bytes) {
  const DevicePtr p = impl_->memory.allocate(bytes);
  if (impl_->init) impl_->init->poison(p, bytes);  // initcheck: nothing written yet
  return p;
}

void Device::map_host_memory(void* p, std::size_t bytes) {
  impl_->memory.add_external(reinterpret_cast<std::uint64_t>(p), bytes, static_cast<std::uint8_t*>(p));
}

bool Device::unmap_host_memory(void* p) { return impl_->memory.remove_external(reinterpret_cast<std::uint64_t>(p)); }

void Device::free(DevicePtr ptr) {
  if (ptr == 0) return;
  const exec::Region* r = impl_->init ? impl_->memory.find(ptr, 1) : nullptr;
  const std::uint64_t size = r != nullptr && r->base == ptr ? r->size : 0;
  impl_->memory.release(ptr);
  if (size != 0) impl_->init->unpoison(ptr, size);  // no longer tracked
}

void Device::copy_to_device(DevicePtr dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  std::memcpy(impl_->memory.host_range(dst, bytes, "copy to device"), src, bytes);
  if (impl_->init) impl_->init->unpoison(dst, bytes);
}

void Device::copy_to_host(void* dst, DevicePtr src, std::size_t bytes) {
  if (bytes == 0) return;
  std::memcpy(dst, impl_->memory.host_range(src, bytes, "copy to host"), bytes);
}

void Device::copy_on_device(DevicePtr dst, DevicePtr src, std::size_t bytes) {
  if (bytes == 0) return;
  std::uint8_t* s = impl_->memory.host_range(src, bytes, "device-to-device copy source");
  std::uint8_t* d = impl_->memory.host_range(dst, bytes, "device-to-device copy destination");
  std::memmove(d, s, bytes);
  if (impl_->init) impl_->init->unpoison(dst, bytes);
}

void Device::memset(DevicePtr dst, int value, std::size_t bytes) {
  if (bytes == 0) return;
  std::memset(impl_->memory.host_range(dst, bytes, "memset"), value, bytes);
  if (impl_->init) impl_->init->unpoison(dst, bytes);
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> Device::unwritten(DevicePtr p, std::size_t bytes) const {
  if (!impl_->init) return {};
  return impl_->init->runs(p, bytes);
}

namespace {
void check_owner(const void* owner, const void* dev) {
  if (owner == nullptr) fail(ErrorKind::kUsage, "empty module");
  if (owner != dev) fail(ErrorKind::kUsage, "the module was loaded by another device");
}
}  // namespace

DevicePtr Device::symbol_address(const Module& module, std::string_view name) const {
  check_owner(module.impl_ ? module.impl_->owner : nullptr, impl_.get());
  return module.impl_->symbol(name).addr;
}

std::size_t Device::symbol_size(const Module& module, std::string_view name) const {
  check_owner(module.impl_ ? module.impl_->owner : nullptr, impl_.get());
  return module.impl_->symbol(name).size;
}

void Device::copy_to_symbol(const Module& module, std::string_view name, const void* src, std::size_t bytes,
                            std::size_t offset) {
  check_owner(module.impl_ ? module.impl_->owner : nullptr, impl_.get());
  const auto& s = module.impl_->symbol(name);
  if (offset > s.size || bytes > s.size - offset) {
    fail(ErrorKind::kUsage, "copy of {} bytes at offset {} overruns symbol '{}' ({} bytes)", bytes, offset, name,
         s.size);
  }
  copy_to_device(s.addr + offset, src, bytes);
}

void Device::copy_from_symbol(void* dst, const Module& module, std::string_view name, std::size_t bytes,
                              std::size_t offset) {
  check_owner(module.impl_ ? module.impl_->owner : nullptr, impl_.get());
  const auto& s = module.impl_->symbol(name);
  if (offset > s.size || bytes > s.size - offset) {
    fail(ErrorKind::kUsage, "copy of {} bytes at offset {} overruns symbol '{}' ({} bytes)", bytes, offset, name,
         s.size);
  }
  copy_to_host(dst, s.addr + offset, bytes);
}

void Device::set_malloc_heap_size(std::size_t bytes) {
  if (impl_->heap) {
    fail(ErrorKind::kUsage, "the device heap cannot be resized after a kernel that uses malloc or free has been launched");
  }
  impl_->options.malloc_heap_bytes = bytes;
}
std::size_t Device::malloc_heap_size() const { return impl_->options.malloc_heap_bytes; }
bool Device::heap_created() const { return impl_->heap != nullptr; }
std::vector<std::pair<std::uint64_t, std::uint64_t>> Device::heap_blocks() const {
  return impl_->heap ? impl_->heap->blocks() : std::vector<std::pair<std::uint64_t, std::uint64_t>>{};
}

void Device::set_printf_fifo_size(std::size_t bytes) {
  if (impl_->printf_launched) {
    fail(ErrorKind::kUsage, "the printf FIFO cannot be resized after a kernel that uses printf has been launched");
  }
  impl_->options.printf_fifo_bytes = bytes;
}
std::size_t Device::printf_fifo_size() const { return impl_->options.printf_fifo_bytes; }
bool Device::printf_launched() const { return impl_->printf_launched; }

LaunchStats Device::launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                           std::span<const KernelArg> args, std::size_t dynamic_shared_bytes) {
  LaunchOptions o;
  o.dynamic_shared_bytes = dynamic_shared_bytes;
  return launch(module, kernel, grid, block, args, o);
}

LaunchStats Device::launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                           std::span<const KernelArg> args, const LaunchOptions& options) {
  const std::size_t dynamic_shared_bytes = options.dynamic_shared_bytes;
  check_owner(module.impl_ ? module.impl_->owner : nullptr, impl_.get());
  const exec::KernelImage& k = module.impl_->kernel(kernel);
  const std::string name = exec::pretty_kernel(k.name);
  if (args.size() != k.params.size()) {
    fail(ErrorKind::kUsage, "kernel {} takes {} parameters, {} arguments given", name, k.params.size(),
         args.size());
  }
  std::vector<std::uint8_t> params(k.param_bytes, 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ParamInfo& p = k.params[i];
    if (args[i].size != p.size) {
      fail(ErrorKind::kUsage, "kernel {} parameter {} ({}) is {} bytes, the argument is {} bytes", name, i, p.name,
           p.size, args[i].size);
    }
    if (p.size != 0 && args[i].data == nullptr) fail(ErrorKind::kUsage, "kernel {} argument {} has no data", name, i);
    if (p.size) std::memcpy(params.data() + k.param_offsets[i], args[i].data, p.size);
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0) {
    fail(ErrorKind::kUsage, "launch of {} with an empty grid ({},{},{}) or block ({},{},{})", name, grid.x, grid.y,
         grid.z, block.x, block.y, block.z);
  }
  const std::uint64_t threads = std::uint64_t(block.x) * block.y * block.z;
  if (threads > kMaxThreadsPerBlock || block.z > 64) {
    fail(ErrorKind::kUsage, "launch of {} with a block of ({},{},{}) threads: at most {} per block (z at most 64)",
         name, block.x, block.y, block.z, kMaxThreadsPerBlock);
  }
  if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535 ||
      std::uint64_t(grid.x) * grid.y * grid.z > 0xffffffffull) {
    fail(ErrorKind::kUsage, "launch of {} with a grid of ({},{},{}) blocks exceeds the grid limits", name, grid.x,
         grid.y, grid.z);
  }
  const std::uint64_t shared = (dynamic_shared_bytes ? k.dynamic_shared_offset : k.static_shared) + dynamic_shared_bytes;
  if (shared > kMaxSharedPerBlock) {
    fail(ErrorKind::kUsage, "launch of {} needs {} bytes of shared memory per block ({} static + {} dynamic); the "
         "limit is {}", name, shared, k.static_shared, dynamic_shared_bytes, kMaxSharedPerBlock);
  }
  exec::LaunchRequest req;
  req.kernel = &k;
  req.global = &impl_->memory;
  req.objects = &impl_->objects;
  req.grid = grid;
  req.block = block;
  req.params = std::move(params);
  req.dynamic_shared = dynamic_shared_bytes;
  req.sink = impl_->sink;
  req.printf_output = impl_->options.printf_output ? impl_->options.printf_output : &std::cout;
  req.host_threads = impl_->options.host_threads;
  req.printf_fifo_bytes = impl_->options.printf_fifo_bytes;
  if (k.uses_heap && !impl_->heap) {
    impl_->heap = std::make_unique<exec::DeviceHeap>(impl_->memory, impl_->options.malloc_heap_bytes);
  }
  req.heap = impl_->heap.get();
  if (k.uses_printf) impl_->printf_launched = true;
  const std::uint64_t ctas = std::uint64_t(grid.x) * grid.y * grid.z;
  if (options.cooperative && ctas > kMaxCooperativeCtas) {
    fail(ErrorKind::kUsage, "cooperative launch of {} with {} blocks: warpscope keeps at most {} blocks of a "
         "cooperative launch resident", name, ctas, kMaxCooperativeCtas);
  }
  // Clusters: the launch's dimensions, or the kernel's .reqnctapercluster (__cluster_dims__).
  {
    const ptx::Function& f = k.ir_function(0);
    Dim3 c = options.cluster;
    const bool launch_named = options.explicit_cluster || c.x * c.y * c.z > 1;
    const auto& req_dims = f.reqnctapercluster;
    if (req_dims[0] != 0) {
      const Dim3 kd{req_dims[0], std::max(req_dims[1], 1u), std::max(req_dims[2], 1u)};
      if (launch_named && (c.x != kd.x || c.y != kd.y || c.z != kd.z)) {
        fail(ErrorKind::kUsage, "launch of {} with clusters of ({},{},{}) blocks: the kernel requires clusters of "
             "({},{},{}) (__cluster_dims__)", name, c.x, c.y, c.z, kd.x, kd.y, kd.z);
      }
      c = kd;
    }
    if (c.x == 0 || c.y == 0 || c.z == 0 || std::uint64_t(c.x) * c.y * c.z > exec::kMaxClusterCtas) {
      fail(ErrorKind::kUsage, "launch of {} with clusters of ({},{},{}) blocks: a cluster has 1 to {} blocks", name,
           c.x, c.y, c.z, exec::kMaxClusterCtas);
    }
    if (grid.x % c.x != 0 || grid.y % c.y != 0 || grid.z % c.z != 0) {
      fail(ErrorKind::kUsage, "launch of {} with a grid of ({},{},{}) blocks in clusters of ({},{},{}): the grid "
           "must be a multiple of the cluster in each dimension", name, grid.x, grid.y, grid.z, c.x, c.y, c.z);
    }
    req.cluster = c;
    req.explicit_cluster = launch_named || req_dims[0] != 0 || f.explicitcluster;
  }
  req.stop = options.stop;
  req.progress = options.progress;
  req.sink_cta_every = options.sink_cta_every;
  req.sanitizer_findings = options.sanitizer_findings;
  req.launch_id = ++impl_->launches;
  req.memcheck_strict = impl_->options.memcheck == MemcheckMode::kStrict;
  req.sanitize = impl_->options.sanitize;
  req.init = impl_->init.get();
  // initcheck: the launch's writes count once it has ended (exec/initcheck.hpp), also when it fails.
  struct Commit {
    exec::InitShadow* init;
    ~Commit() {
      if (init != nullptr) init->commit();
    }
  } commit{req.init};
  // initcheck: a read of bytes another CTA of this launch writes is no report (the GPU may run
  // the write first); decided once the launch's writes are all known, before they are committed.
  const auto drop_seen_reads = [&](LaunchStats& s) {
    if (req.init != nullptr) req.init->drop_reads_written_by_others(s, req.grid);
  };
  LaunchStats stats;
  if (options.cooperative) {
    // The grid workspace of cooperative_groups::this_grid(): grid.sync() counts arrivals in the
    // 32-bit word at +4. A fresh zeroed one per launch, freed when it ends.
    req.cooperative = true;
    req.grid_workspace = impl_->memory.allocate(16, "grid workspace");
    try {
      stats = exec::run_launch(req);
    } catch (...) {
      impl_->memory.release(req.grid_workspace);
      throw;
    }
    impl_->memory.release(req.grid_workspace);
  } else {
    stats = exec::run_launch(req);
  }
  drop_seen_reads(stats);
  // A compiled access runs exactly when its anchor does, with the same lanes.
  if (!k.compiled.empty()) {
    stats.pc_instructions.resize(k.code.size(), 0);
    stats.pc_thread_instructions.resize(k.code.size(), 0);
    for (const CompiledAccess& c : k.compiled) {
      stats.pc_instructions.push_back(stats.pc_instructions[c.anchor]);
      stats.pc_thread_instructions.push_back(stats.pc_thread_instructions[c.anchor]);
    }
  }
  return stats;
}

void Device::set_access_sink(AccessSink* sink) { impl_->sink = sink; }

}  // namespace warpscope
