#include "exec/fault.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "common/error.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

std::string pretty_kernel(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status == 0 && d) return d.get();
  return mangled;
}

std::string kernel_label(const std::string& mangled) {
  const std::string pretty = pretty_kernel(mangled);
  return pretty == mangled ? mangled : fmt::format("{} [{}]", pretty, mangled);
}

std::uint32_t KernelImage::line(std::uint32_t pc) const {
  if (pc >= source.size()) return 0;
  const ptx::SourceLoc loc = module->outermost(ir_instruction(pc).loc);
  return loc.valid() ? loc.line : 0;
}

std::string KernelImage::where(std::uint32_t pc) const {
  if (pc >= source.size()) return module->origin;
  const std::string_view text_origin = module->text_origin(ir_function(source[pc].func));
  const ptx::Instruction& ins = ir_instruction(pc);
  const ptx::SourceLoc loc = module->outermost(ins.loc);
  if (loc.valid()) {
    std::string_view path = module->file_path(loc);
    return fmt::format("{}:{}", path.empty() ? std::string_view("?") : path, loc.line);
  }
  return fmt::format("{}:{}", text_origin, ins.ptx.line);
}

std::string describe_pc(const KernelImage& k, std::uint32_t pc) {
  std::string s = "kernel " + kernel_label(k.name);
  if (pc >= k.source.size()) return s;
  const ptx::Instruction& ins = k.ir_instruction(pc);
  const ptx::Function& fn = k.ir_function(k.source[pc].func);
  s += fmt::format(" at {}", k.where(pc));
  if (&fn != &k.ir_function(0)) s += fmt::format(" in function {}", pretty_kernel(fn.name));
  s += fmt::format(" ({}:{}: `{}`)", k.module->text_origin(fn), ins.ptx.line,
                   ptx::format_instruction(*k.module, fn, ins));
  return s;
}

Dim3 Ctx::thread_of(unsigned lane) const {
  const std::uint64_t t = std::uint64_t(warp_index) * kLanes + lane;
  Dim3 d;
  d.x = static_cast<std::uint32_t>(t % ntid.x);
  d.y = static_cast<std::uint32_t>((t / ntid.x) % ntid.y);
  d.z = static_cast<std::uint32_t>(t / (std::uint64_t(ntid.x) * ntid.y));
  return d;
}

namespace {

std::string who(const Ctx& x, unsigned lane) {
  const Dim3 t = x.thread_of(lane);
  return fmt::format("block ({},{},{}), thread ({},{},{})", x.ctaid.x, x.ctaid.y, x.ctaid.z, t.x,
                     t.y, t.z);
}

}  // namespace

void memory_fault(const Ctx& x, const Inst& in, ErrorKind kind, unsigned lane, std::uint64_t addr,
                  unsigned width, Space space, Op op, bool generic, const char* note) {
  const std::uint32_t pc = x.pc_of(in);
  std::string space_word(to_string(space));
  if (generic) space_word = "generic (" + space_word + ")";
  std::string detail;
  if (kind == ErrorKind::kMisaligned) {
    detail = fmt::format("address 0x{:x} is not a multiple of the access width {}", addr, width);
  } else {
    switch (space) {
      case Space::kShared:
        detail = fmt::format("shared offset 0x{:x} is outside the block's {} bytes of shared memory",
                             addr, x.shared_size);
        break;
      case Space::kLocal:
        detail = fmt::format("local offset 0x{:x} is outside the thread's {} bytes of local memory{}", addr,
                             x.local_frame,
                             x.memcheck == nullptr
                                 ? " (--memcheck strict)"
                                 : fmt::format(" and the {}-byte stack the GPU maps after them",
                                               x.local_stride - x.local_frame));
        break;
      default: {
        const Region* r = x.global->nearest(addr);
        if (addr == 0) {
          detail = "null pointer";
        } else if (r == nullptr) {
          detail = "no device memory is allocated";
        } else if (addr >= r->base) {
          detail = fmt::format("{} bytes past the end of the allocation [0x{:x}, 0x{:x}){}",
                               addr - (r->base + r->size), r->base, r->base + r->size,
                               r->label.empty() ? "" : " (" + r->label + ")");
        } else {
          detail = fmt::format("{} bytes before the allocation [0x{:x}, 0x{:x}){}", r->base - addr,
                               r->base, r->base + r->size,
                               r->label.empty() ? "" : " (" + r->label + ")");
        }
      }
    }
  }
  const char* what = kind == ErrorKind::kMisaligned ? "misaligned" : "out-of-bounds";
  throw Error(kind, fmt::format("{} {} {} of {} bytes at address 0x{:x} in {}, {}: {}{}", what,
                                space_word, describe(op), width, addr, describe_pc(*x.kernel, pc),
                                who(x, lane), detail, note));
}

std::string lanes_text(std::uint32_t m) {
  if (m == kFullMask) return "all lanes";
  std::string s;
  unsigned l = 0;
  while (l < 32) {
    if (!((m >> l) & 1)) {
      ++l;
      continue;
    }
    unsigned e = l;
    while (e + 1 < 32 && ((m >> (e + 1)) & 1)) ++e;
    if (!s.empty()) s += ",";
    s += e == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, e);
    l = e + 1;
  }
  return "lanes " + s;
}

void lane_fault(const Ctx& x, std::uint32_t pc, ErrorKind kind, unsigned lane,
                const std::string& what) {
  throw Error(kind,
              fmt::format("{} in {}, {}", what, describe_pc(*x.kernel, pc), who(x, lane)));
}

}  // namespace warpscope::exec
