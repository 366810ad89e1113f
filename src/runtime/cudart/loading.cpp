// Loading registered fatbinaries (one module, or a device link's translation units linked into
// one program), and what ptxas and its machine code say of a module's kernels.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <utility>

#include <fmt/format.h>

#include "analysis/ptxas.hpp"
#include "analysis/sass.hpp"
#include "common/error.hpp"
#include "runtime/cudart/runtime.hpp"
#include "runtime/cudart/closed_library.hpp"

namespace warpscope::cudart {
namespace fatbin = warpscope::runtime::fatbin;
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

/// The file name (no directory) of the PTX's first `.file` directive, "" without one (no
/// -lineinfo): names a translation unit in messages.
std::string first_source_file(const std::string& ptx) {
  static const std::regex& file = *new std::regex(R"re(\.file\s+\d+\s+"([^"]*)")re");
  std::smatch m;
  const std::size_t at = ptx.find(".file");
  if (at == std::string::npos) return "";
  const std::string line = ptx.substr(at, ptx.find('\n', at) - at);
  if (!std::regex_search(line, m, file)) return "";
  const std::string path = m[1].str();
  return path.substr(path.find_last_of('/') + 1);
}

/// Whether the PTX text defines kernel `name` (`.entry name(`).
bool defines_entry(const std::string& ptx, const std::string& name) {
  const std::string key = ".entry " + name;
  for (std::size_t at = ptx.find(key); at != std::string::npos; at = ptx.find(key, at + 1)) {
    const std::size_t after = at + key.size();
    if (after < ptx.size() && (ptx[after] == '(' || ptx[after] == ' ' || ptx[after] == '\n')) return true;
  }
  return false;
}

/// Static shared bytes and the local depot of one .entry, read from the PTX text: what
/// Runtime::resources reports where ptxas gives no numbers.
KernelResources scan_ptx_resources(const std::string& ptx, const std::string& kernel) {
  KernelResources r;
  const auto at = ptx.find(".entry " + kernel);
  if (at == std::string::npos) return r;
  const auto open = ptx.find('{', at);
  if (open == std::string::npos) return r;
  // The body ends at the matching brace.
  int depth = 0;
  std::size_t end = open;
  for (; end < ptx.size(); ++end) {
    if (ptx[end] == '{') ++depth;
    if (ptx[end] == '}' && --depth == 0) break;
  }
  const std::string body = ptx.substr(open, end - open);
  static const std::regex& decl = *new std::regex(R"(\.(shared|local)\s+(?:\.align\s+\d+\s+)?\.[a-z0-9]+\s+[A-Za-z_$%][\w$]*\[(\d+)\])");
  for (std::sregex_iterator it(body.begin(), body.end(), decl), e; it != e; ++it) {
    const std::uint64_t n = std::stoull((*it)[2].str());
    if ((*it)[1] == "shared") r.static_shared += n;
    else r.local_bytes += n;
  }
  return r;
}

/// Bytes of the module's __constant__ variables (module-scope .const declarations, laid out in
/// order with their alignment): what cudaFuncGetAttributes reports as constSizeBytes, for every
/// kernel of the module alike (measured on an H200, CUDA 13: tests/hw/data/h200/func_attrs.csv).
std::uint64_t ptx_const_bytes(const std::string& ptx) {
  static const std::regex& decl = *new std::regex(
      R"(^(?:\.visible\s+)?\.const\s+(?:\.align\s+(\d{1,6})\s+)?\.[a-z]+(\d{1,3})\s+[A-Za-z_$%][\w$]*((?:\[\d{1,12}\])*))");
  static const std::regex& dim = *new std::regex(R"(\[(\d+)\])");
  std::uint64_t end = 0;
  std::size_t pos = 0;
  while (pos < ptx.size()) {
    std::size_t eol = ptx.find('\n', pos);
    if (eol == std::string::npos) eol = ptx.size();
    const std::string_view view = std::string_view(ptx).substr(pos, eol - pos);
    pos = eol + 1;
    if (!view.starts_with(".const") && !view.starts_with(".visible .const")) continue;
    const std::string line(view);
    std::smatch m;
    if (!std::regex_search(line, m, decl)) continue;
    const std::uint64_t align = m[1].matched ? std::max<std::uint64_t>(1, std::stoull(m[1].str())) : 1;
    std::uint64_t bytes = std::max<std::uint64_t>(1, std::stoull(m[2].str()) / 8);
    const std::string dims = m[3].str();
    for (std::sregex_iterator d(dims.begin(), dims.end(), dim), de; d != de; ++d) bytes *= std::stoull((*d)[1].str());
    end = round_up(end, align) + bytes;
  }
  return end;
}

/// What ptxas says of a module: its -v figures and, for sm_90, its machine code (read back with
/// src/analysis/sass.hpp, for the spills; empty with a note when it cannot be had).
struct PtxasInfo {
  analysis::ptxas::Usage usage;
  std::vector<analysis::sass::Function> sass;
  std::vector<std::uint8_t> cubin;  // the machine code `sass` was read from
};

/// ptxas -v on a module's PTX (src/analysis/ptxas.hpp), run once per module (and cached on disk
/// across runs). nullptr when there are no ptxas numbers: ptxas is not installed, is switched off
/// (WARPSCOPE_PTXAS=none), or rejected the PTX; the reason is printed once.
const PtxasInfo* ptxas_info(const Runtime& rt, const ModuleRec& mod, std::size_t part, const arch::Profile& p) {
  // Never destroyed (launches from static destructors and atexit handlers use it).
  static auto& memo = *new std::map<std::pair<const ModuleRec*, std::size_t>, std::optional<PtxasInfo>>;
  static bool said_unavailable = false;
  const PtxPart& m = mod.parts.at(part);
  auto [it, inserted] = memo.try_emplace(std::pair(&mod, part));
  if (!inserted) return it->second ? &*it->second : nullptr;
  const std::string choice = env("WARPSCOPE_PTXAS");
  const char* consequence = "cudaFuncGetAttributes reports 32 registers and the PTX's local depot, and the "
                            "report's registers are null";
  if (choice == "none") {
    if (!std::exchange(said_unavailable, true)) rt.note(fmt::format("WARPSCOPE_PTXAS=none: {}", consequence));
    return nullptr;
  }
  // The profile's target, unless the PTX is for a newer GPU (WARPSCOPE_ANY_PTX): ptxas cannot
  // assemble it for an older one, so the numbers are then the PTX's own target's.
  std::string target = p.ptx_target;
  if (m.ptx_arch > p.cc_major * 10 + p.cc_minor) target = fmt::format("sm_{}", m.ptx_arch);
  // Architecture-specific PTX (`.target sm_90a`: wgmma, setmaxnreg) assembles for that target only.
  if (m.ptx.find(fmt::format(".target {}a", target)) != std::string::npos) target += "a";
  analysis::ptxas::Options o;
  o.ptxas = choice;
  // The machine code is read for sm_90 only (the one encoding src/analysis/sass.cpp knows);
  // WARPSCOPE_SASS=none leaves it out (no spill accesses: ptxas's static estimate only).
  o.cubin = (target == "sm_90" || target == "sm_90a") && env("WARPSCOPE_SASS") != "none";
  // A translation unit of relocatable device code calls functions and reads variables of others:
  // ptxas compiles it alone (--compile-only), as nvcc -rdc=true does before nvlink.
  o.compile_only = mod.linked;
  try {
    analysis::ptxas::Result r = analysis::ptxas::analyze(m.ptx, target, o);
    if (!r.available) {
      if (!std::exchange(said_unavailable, true)) rt.note(fmt::format("{}: {}", r.unavailable_reason, consequence));
      return nullptr;
    }
    PtxasInfo info;
    info.usage = std::move(r.usage);
    if (o.cubin) {
      try {
        info.sass = analysis::sass::read_cubin(r.cubin, fmt::format("{} (ptxas -arch={} cubin)", m.origin, target));
        info.cubin = std::move(r.cubin);
      } catch (const Error& e) {
        rt.note(fmt::format("{}: no machine code for the spill accesses: {}", m.origin, e.what()));
      }
    }
    it->second = std::move(info);
  } catch (const Error& e) {
    rt.note(fmt::format("{}: no ptxas resource usage: {}", m.origin, e.what()));
    return nullptr;
  }
  return &*it->second;
}

/// A PTX ld.shared's, st.shared's or ld.local's bytes per lane and address ("ld.shared.f32 %f9,
/// [%r7+4];": 4, "%r7", 4), as src/ptx's printer writes it; false for anything else.
bool parse_load(std::string_view text, analysis::sass::PtxInst& p) {
  if (!text.empty() && text[0] == '@') text.remove_prefix(std::min(text.size(), text.find(' ') + 1));
  const std::size_t sp = text.find(' ');
  const std::string_view op = text.substr(0, sp);
  const bool shared = op.rfind("ld.shared.", 0) == 0, local = op.rfind("ld.local.", 0) == 0;
  const bool shared_store = op.rfind("st.shared.", 0) == 0;
  if (!(shared || local || shared_store) || sp == std::string_view::npos) return false;
  unsigned vec = 1, elem = 0;
  std::size_t pos = 0;
  while (pos < op.size()) {
    std::size_t dot = op.find('.', pos);
    const std::string_view part = op.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    if (part == "v2") vec = 2;
    if (part == "v4") vec = 4;
    if (part.size() >= 2 && std::string_view("fusb").find(part[0]) != std::string_view::npos) {
      const std::string_view bits = part.substr(1);
      if (bits == "8") elem = 1;
      if (bits == "16") elem = 2;
      if (bits == "32") elem = 4;
      if (bits == "64") elem = 8;
    }
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  const std::size_t open = text.find('['), close = text.find(']');
  if (elem == 0 || open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
  const std::string_view addr = text.substr(open + 1, close - open - 1);
  const std::size_t plus = addr.find('+');
  p.address_register = std::string(addr.substr(0, plus));
  p.address_offset = 0;
  if (plus != std::string_view::npos) {
    const std::string off(addr.substr(plus + 1));
    char* end = nullptr;
    p.address_offset = std::strtoll(off.c_str(), &end, 0);
    if (end == off.c_str() || *end != 0) return false;
  }
  p.shared_load = shared;
  p.shared_store = shared_store;
  p.local_load = local;
  p.width = static_cast<std::uint8_t>(vec * elem);
  return true;
}

/// What the machine code of kernel `name` (src/analysis/sass.hpp) does that its PTX does not,
/// installed in the module: its register spills as compiled accesses and its merged shared loads
/// as record widths. Returns the spills placed and not placed, and the merges.
struct MachineCodeFacts {
  std::size_t spills = 0;
  std::uint32_t unplaced = 0;
  std::size_t merges = 0;
  std::vector<std::pair<std::uint32_t, std::string>> groupings;  // pc, text
  const analysis::sass::Function* function = nullptr;  // the kernel's machine code
  std::vector<analysis::sass::PtxInst> ptx;            // its PTX instructions as the planners see them
};
MachineCodeFacts install_machine_code_of(Module& module, const std::string& name,
                                      const std::vector<analysis::sass::Function>& sass) {
  const auto f = std::find_if(sass.begin(), sass.end(), [&](const analysis::sass::Function& x) { return x.name == name; });
  if (f == sass.end()) return {};
  // The PTX as the planners see it: before compiled accesses are installed (they are listed after
  // the PTX instructions and have no machine code of their own).
  const std::vector<InstructionInfo>& code = module.instructions(name);
  std::vector<analysis::sass::PtxInst> ptx(code.size());
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    const InstructionInfo& c = code[pc];
    analysis::sass::PtxInst& p = ptx[pc];
    using Flow = analysis::sass::PtxInst::Flow;
    p.flow = c.branch_target >= 0 ? Flow::kBranch : c.exits ? Flow::kExit : Flow::kPlain;
    p.guarded = c.guarded;
    p.target = c.branch_target >= 0 ? static_cast<std::uint32_t>(c.branch_target) : 0;
    p.ptx_line = c.ptx_line;
    p.local_memory = c.local_access;
    p.anchor_ok = c.plain && !c.guarded && !c.compiled;
    if (!c.compiled) parse_load(c.text, p);
  }
  MachineCodeFacts facts;
  const analysis::sass::SpillPlan plan = analysis::sass::plan_spills(*f, ptx);
  std::vector<CompiledAccess> accesses;
  for (const analysis::sass::Spill& s : plan.spills) {
    if (s.frame_offset < 0) continue;
    accesses.push_back(CompiledAccess{s.anchor, s.store, s.width, static_cast<std::uint32_t>(s.frame_offset),
                                      fmt::format("{} // register spill (ptxas, machine code at 0x{:x})", s.text,
                                                  s.sass_offset)});
  }
  facts.spills = accesses.size();
  facts.unplaced = plan.unplaced;
  module.set_compiled_accesses(name, std::move(accesses));
  std::vector<Module::RecordWidth> widths;
  for (const analysis::sass::Merge& m : analysis::sass::plan_merges(*f, ptx)) {
    widths.push_back(Module::RecordWidth{m.pc, m.width});
    for (std::uint32_t q : m.absorbed) widths.push_back(Module::RecordWidth{q, 0});
    ++facts.merges;
  }
  module.set_record_widths(name, std::move(widths));
  std::vector<LaneGrouping> groupings = analysis::sass::plan_lane_groups(*f, ptx);
  for (const LaneGrouping& g : groupings) facts.groupings.emplace_back(g.pc, g.text);
  module.set_lane_groupings(name, std::move(groupings));
  facts.function = &*f;
  facts.ptx = std::move(ptx);
  return facts;
}

}  // namespace

const fatbin::Entry* Runtime::choose_part_ptx(const fatbin::Fatbin& fb, const std::string& origin, std::string* why) {
  const fatbin::Entry* e = fatbin::choose_ptx(fb, profile().cc_major, profile().cc_minor, why);
  if (e == nullptr && any_ptx) {
    // WARPSCOPE_ANY_PTX: run the oldest PTX there is, newer than the profile (with a note).
    for (const auto& entry : fb.entries)
      if (entry.is_ptx() && (e == nullptr || entry.arch < e->arch)) e = &entry;
    if (e != nullptr) {
      note(fmt::format("{}: no PTX for compute capability {}.{}; running its compute_{} PTX (WARPSCOPE_ANY_PTX)",
                       origin, profile().cc_major, profile().cc_minor, e->arch));
    }
  }
  return e;
}

cudaError_t Runtime::ensure_loaded(ModuleRec& m) {
  if (m.state == ModuleRec::State::kLoaded) return kSuccess;
  if (m.state == ModuleRec::State::kFailed) return m.load_error;
  Device& dev = device();
  auto failed = [&](cudaError_t code, std::string message) {
    m.state = ModuleRec::State::kFailed;
    m.load_error = code;
    m.load_message = std::move(message);
    std::fprintf(stderr, "warpscope: %s\n", m.load_message.c_str());
    return m.load_error;
  };
  try {
    if (m.wrapper == nullptr) {
      // A module the driver API loaded (drv_module.cpp): its PTX is parts[0], or the parts that
      // cuLinkComplete linked (drv_link.cpp); every kernel of it gets a record (its CUfunction)
      // at the first load.
      if (m.parts.size() > 1) {
        std::vector<PtxSource> sources;
        for (const PtxPart& part : m.parts) sources.push_back(PtxSource{part.ptx, part.origin});
        m.module = dev.link_ptx(sources, m.origin);
      } else {
        m.module = dev.load_ptx(m.parts.at(0).ptx, m.origin);
      }
      if (m.kernels.empty()) {
        for (const std::string& name : m.module->kernels()) {
          auto k = std::make_unique<KernelRec>();
          k->module = &m;
          k->name = name;
          m.kernels.push_back(k.get());
          kernels.push_back(std::move(k));
        }
      }
    } else {
      const fatbin::Wrapper w = fatbin::read_wrapper(m.wrapper);
      // A device link (-rdc=true): the translation units' fatbins, each with its PTX; the linked
      // image's own fatbin has machine code only.
      std::vector<const void*> fatbins = fatbin::prelinked_fatbins(w);
      m.linked = !fatbins.empty();
      if (!m.linked) fatbins.push_back(w.fatbin);
      m.parts.clear();
      m.origin = m.origin.substr(0, m.origin.find(" ("));  // "fatbinary N", also when reloaded after a reset
      std::string without_ptx;  // a device link's units that have machine code only
      for (std::size_t i = 0; i < fatbins.size(); ++i) {
        PtxPart part;
        part.origin = m.linked ? fmt::format("{}, translation unit {}", m.origin, i) : m.origin;
        const std::size_t size = fatbin::size_from_header(fatbins[i], part.origin);
        const auto fb = fatbin::parse(std::span(static_cast<const std::uint8_t*>(fatbins[i]), size), part.origin);
        std::string why;
        const fatbin::Entry* e = choose_part_ptx(fb, part.origin, &why);
        if (e == nullptr && m.linked) {
          without_ptx += fmt::format("{}{}: {}", without_ptx.empty() ? "" : "; ", part.origin, why);
          continue;
        }
        if (e == nullptr && !m.linked && std::none_of(fb.entries.begin(), fb.entries.end(),
                                                      [](const fatbin::Entry& x) { return x.is_ptx(); })) {
          // A shared library's fatbinary with machine code only: say which library.
          if (const std::string library = library_of(m.wrapper); !library.empty()) {
            ClosedLibrary lib;
            lib.name = library.substr(library.rfind('/') + 1);
            lib.path = library;
            for (const auto& entry : fb.entries)
              if (entry.is_elf()) lib.sm_archs.insert(entry.arch);
            return failed(kErrNoKernelImageForDevice, fmt::format("{}: {}", m.origin, closed_library_message(lib)));
          }
        }
        if (e == nullptr) {
          return failed(kErrNoKernelImageForDevice,
                        fmt::format("{}: no PTX for the {} profile (compute capability {}.{}): {}{}", part.origin,
                                    profile().name, profile().cc_major, profile().cc_minor, why,
                                    w.version == 2 ? " (a -rdc=true device link whose translation units are not "
                                                     "listed in the wrapper)"
                                                   : ""));
        }
        part.ptx = fatbin::contents(*e, part.origin);
        part.ptx_arch = static_cast<int>(e->arch);
        const std::string file = first_source_file(part.ptx);
        part.origin += fmt::format(" ({}compute_{} PTX, {})", m.linked && !file.empty() ? file + ", " : "", e->arch,
                                   fatbin::to_string(e->compression));
        m.ptx_arch = std::max(m.ptx_arch, part.ptx_arch);
        m.parts.push_back(std::move(part));
      }
      if (m.linked) {
        m.origin += fmt::format(" (device link of {} translation units)", fatbins.size());
        if (m.parts.empty()) {
          return failed(kErrNoKernelImageForDevice,
                        fmt::format("{}: no translation unit has PTX for the {} profile: {}", m.origin, profile().name,
                                    without_ptx));
        }
        std::vector<PtxSource> sources;
        for (const PtxPart& p : m.parts) sources.push_back(PtxSource{p.ptx, p.origin});
        try {
          m.module = dev.link_ptx(sources, m.origin);
        } catch (const Error& err) {
          if (without_ptx.empty()) throw;
          // The symbols may be defined in the units warpscope cannot read.
          throw Error(err.kind(), fmt::format("{}; translation units without PTX, which warpscope cannot run: {}",
                                              err.what(), without_ptx));
        }
        if (!without_ptx.empty()) note(fmt::format("{}: translation units without PTX: {}", m.origin, without_ptx));
      } else {
        m.origin = m.parts[0].origin;
        m.module = dev.load_ptx(m.parts[0].ptx, m.origin);
      }
    }
    const std::vector<std::string> defined = m.module->kernels();
    for (KernelRec* k : m.kernels) {
      k->part = 0;
      if (std::find(defined.begin(), defined.end(), k->name) == defined.end()) {
        k->part = kNoPart;  // its unit has no PTX: launching it reports that
        continue;
      }
      k->params = m.module->params(k->name);
      for (std::size_t i = 0; i < m.parts.size(); ++i)
        if (defines_entry(m.parts[i].ptx, k->name)) k->part = i;
    }
    for (VarRec* v : m.vars) {
      try {
        symbol_ranges[dev.symbol_address(*m.module, v->name)] = dev.symbol_size(*m.module, v->name);
      } catch (const Error&) {
        // A registered variable the PTX does not define: reported when it is used.
      }
    }
    m.state = ModuleRec::State::kLoaded;
    return kSuccess;
  } catch (const Error& err) {
    const cudaError_t code = err.kind() == ErrorKind::kParse && m.parts.empty() ? kErrInvalidKernelImage
                             : err.kind() == ErrorKind::kUnsupported            ? kErrNotSupported
                                                                                : kErrInvalidPtx;
    return failed(code, fmt::format("{}: cannot load: {}", m.origin, err.what()));
  }
}

KernelRec* Runtime::find_kernel(const void* func) {
  if (func == nullptr) return nullptr;
  auto it = kernel_by_stub.find(func);
  if (it != kernel_by_stub.end()) return it->second;
  // A cudaKernel_t handle (what __cudaGetKernel hands out) is the KernelRec itself.
  for (auto& k : kernels)
    if (k.get() == func) return k.get();
  return nullptr;
}

VarRec* Runtime::find_var(const void* symbol) {
  auto it = var_by_shadow.find(symbol);
  return it == var_by_shadow.end() ? nullptr : it->second;
}

const KernelResources& Runtime::resources(KernelRec& k) {
  if (!k.resources) {
    if (k.part == kNoPart) fail(ErrorKind::kUsage, "kernel {} has no PTX in {}", demangle(k.name), k.module->origin);
    const PtxPart& part = k.module->parts.at(k.part);
    KernelResources r = scan_ptx_resources(part.ptx, k.name);
    r.const_bytes = ptx_const_bytes(part.ptx);
    if (const auto* info = ptxas_info(*this, *k.module, k.part, profile()); info != nullptr) {
      if (const auto* f = info->usage.find(k.name); f != nullptr && f->registers >= 0) {
        r.registers = f->registers;
        r.static_shared = f->shared_bytes;
        r.stack_frame_bytes = f->stack_frame_bytes;
        r.spill_store_bytes = f->spill_store_bytes;
        r.spill_load_bytes = f->spill_load_bytes;
        r.barriers = f->barriers;
        r.from_ptxas = true;
      }
    }
    k.resources = r;
  }
  return *k.resources;
}

void Runtime::install_machine_code(KernelRec& k) {
  if (k.spills_installed || k.part == kNoPart) return;
  k.spills_installed = true;
  resources(k);
  const auto* info = ptxas_info(*this, *k.module, k.part, profile());
  if (info == nullptr || info->sass.empty()) return;
  const MachineCodeFacts mc = install_machine_code_of(*k.module->module, k.name, info->sass);
  k.resources->spills_from_sass = true;
  k.resources->spill_accesses = mc.spills;
  k.resources->spills_unplaced = mc.unplaced;
  k.resources->merged_shared_loads = mc.merges;
  k.resources->lane_groupings = mc.groupings;
  k.sass = mc.function;
  k.sass_ptx = mc.ptx;
  k.cubin = &info->cubin;
  if (mc.unplaced != 0) {
    note(fmt::format("kernel {}: {} spill instructions of the machine code follow no PTX block and are not counted",
                     demangle(k.name), mc.unplaced));
  }
}

}  // namespace warpscope::cudart
