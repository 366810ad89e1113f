#include "analysis/sass.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "common/elf_file.hpp"
#include "analysis/sass_graph.hpp"
#include "common/error.hpp"

namespace warpscope::analysis::sass {
using detail::Graph;
using detail::Flow;
using detail::build_graph;
using detail::index_of;
using detail::mark_reachable;
using detail::ptx_graph;
using detail::sass_graph;
namespace {

constexpr std::uint16_t kOpLdl = 0x983, kOpStl = 0x387, kOpLds = 0x984, kOpSts = 0x388, kOpStsUniform = 0x988, kOpLdg = 0x981,
                        kOpStg = 0x986, kOpBra = 0x947, kOpCall = 0x944, kOpExit = 0x94d, kOpRet = 0x950,
                        kOpBssy = 0x945, kOpLdc = 0xb82, kOpUldc = 0xab9;

std::int64_t sign_extend(std::uint64_t v, unsigned bits) {
  const std::uint64_t m = std::uint64_t(1) << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<std::int64_t>(v ^ m) - static_cast<std::int64_t>(m);
}

constexpr std::uint8_t kWidthBytes[8] = {1, 1, 2, 2, 4, 8, 16, 16};

// ---- DWARF line table (version 2..4, 32-bit format) ----------------------------------------

struct Cursor {
  std::span<const std::uint8_t> b;
  std::size_t p = 0;
  std::string_view origin;
  void need(std::size_t n) const {
    if (p > b.size() || b.size() - p < n)
      fail(ErrorKind::kParse, "{}: malformed .nv_debug_line_sass: {} bytes needed at offset {}", origin, n, p);
  }
  std::uint8_t u8() {
    need(1);
    return b[p++];
  }
  template <class T>
  T fixed() {
    need(sizeof(T));
    T v{};
    std::memcpy(&v, b.data() + p, sizeof(T));
    p += sizeof(T);
    return v;
  }
  std::uint64_t uleb() {
    std::uint64_t r = 0;
    for (unsigned s = 0;; s += 7) {
      const std::uint8_t x = u8();
      if (s < 64) r |= std::uint64_t(x & 0x7f) << s;
      if ((x & 0x80) == 0) return r;
    }
  }
  std::int64_t sleb() {
    std::uint64_t r = 0;
    unsigned s = 0;
    std::uint8_t x = 0;
    do {
      x = u8();
      if (s < 64) r |= std::uint64_t(x & 0x7f) << s;
      s += 7;
    } while (x & 0x80);
    if (s < 64 && (x & 0x40)) r |= ~std::uint64_t(0) << s;
    return static_cast<std::int64_t>(r);
  }
  void skip_string() {
    while (u8() != 0) {
    }
  }
};

struct Row {
  std::string section;  // the .text section the sequence's address is relocated against
  std::uint64_t address = 0;
  std::uint32_t line = 0;
};

std::vector<Row> line_rows(std::span<const std::uint8_t> data, const std::map<std::uint64_t, std::string>& reloc,
                           std::string_view origin) {
  std::vector<Row> rows;
  Cursor c{data, 0, origin};
  while (c.p < data.size()) {
    const std::size_t unit = c.p;
    const auto unit_length = c.fixed<std::uint32_t>();
    if (unit_length == 0xffffffffu) fail(ErrorKind::kParse, "{}: 64-bit DWARF line tables are not supported", origin);
    c.need(unit_length);
    const std::size_t end = c.p + unit_length;
    const auto version = c.fixed<std::uint16_t>();
    if (version < 2 || version > 4) fail(ErrorKind::kParse, "{}: DWARF line table version {}", origin, version);
    const auto header_length = c.fixed<std::uint32_t>();
    const std::size_t program = c.p + header_length;
    const std::uint8_t min_inst = c.u8();
    if (version >= 4) c.u8();  // maximum operations per instruction
    c.u8();                    // default is_stmt
    const auto line_base = static_cast<std::int8_t>(c.u8());
    const std::uint8_t line_range = c.u8();
    const std::uint8_t opcode_base = c.u8();
    if (line_range == 0 || opcode_base == 0) fail(ErrorKind::kParse, "{}: malformed DWARF line table header", origin);
    std::vector<std::uint8_t> std_len(opcode_base - 1);
    for (auto& n : std_len) n = c.u8();
    if (program > end) fail(ErrorKind::kParse, "{}: DWARF line header runs past its unit", origin);
    c.p = program;
    std::string section;
    std::uint64_t address = 0;
    std::int64_t line = 1;
    auto emit = [&] { rows.push_back(Row{section, address, static_cast<std::uint32_t>(std::max<std::int64_t>(line, 0))}); };
    while (c.p < end) {
      const std::uint8_t op = c.u8();
      if (op >= opcode_base) {
        const unsigned adj = op - opcode_base;
        address += std::uint64_t(adj / line_range) * min_inst;
        line += line_base + static_cast<int>(adj % line_range);
        emit();
        continue;
      }
      switch (op) {
        case 0: {  // extended
          const std::uint64_t len = c.uleb();
          c.need(len);
          const std::size_t next = c.p + len;
          if (len > 0) {
            const std::uint8_t sub = c.u8();
            if (sub == 1) {  // end_sequence
              emit();
              address = 0;
              line = 1;
              section.clear();
            } else if (sub == 2 && len >= 9) {  // set_address
              const std::size_t at = c.p;
              address = c.fixed<std::uint64_t>();
              const auto r = reloc.find(at);
              section = r != reloc.end() ? r->second : std::string();
            }
          }
          c.p = next;
          break;
        }
        case 1: emit(); break;                                   // copy
        case 2: address += c.uleb() * min_inst; break;           // advance_pc
        case 3: line += c.sleb(); break;                         // advance_line
        case 4: c.uleb(); break;                                 // set_file
        case 5: c.uleb(); break;                                 // set_column
        case 6: case 7: break;                                   // negate_stmt, basic_block
        case 8: address += std::uint64_t((255 - opcode_base) / line_range) * min_inst; break;  // const_add_pc
        case 9: address += c.fixed<std::uint16_t>(); break;      // fixed_advance_pc
        default:
          for (unsigned i = 0; i < std_len[op - 1]; ++i) c.uleb();
      }
    }
    if (c.p != end) fail(ErrorKind::kParse, "{}: DWARF line unit at {} overruns its length", origin, unit);
  }
  return rows;
}

}  // namespace

Inst decode_sm90(std::uint64_t lo, std::uint64_t hi, std::uint32_t offset) {
  Inst in;
  in.offset = offset;
  in.opcode = static_cast<std::uint16_t>(lo & 0xfff);
  in.guard = static_cast<std::uint8_t>((lo >> 12) & 7);
  in.guard_negated = ((lo >> 15) & 1) != 0;
  const std::uint64_t control = hi >> 41;
  in.stall = static_cast<std::uint8_t>(control & 0xf);
  in.yield = ((control >> 4) & 1) != 0;
  in.write_barrier = static_cast<std::uint8_t>((control >> 5) & 7);
  in.read_barrier = static_cast<std::uint8_t>((control >> 8) & 7);
  in.wait_mask = static_cast<std::uint8_t>((control >> 11) & 0x3f);
  in.reuse = static_cast<std::uint8_t>((control >> 17) & 0xf);
  const std::int64_t next = std::int64_t(offset) + 16;
  switch (in.opcode) {
    case kOpLdl: in.kind = Kind::kLoadLocal; break;
    case kOpStl: in.kind = Kind::kStoreLocal; break;
    case kOpLds: in.kind = Kind::kLoadShared; break;
    case kOpSts:
    case kOpStsUniform: in.kind = Kind::kStoreShared; break;
    case kOpLdg: in.kind = Kind::kLoadGlobal; break;
    case kOpStg: in.kind = Kind::kStoreGlobal; break;
    case kOpBra:
    case kOpCall: {
      in.kind = in.opcode == kOpBra ? Kind::kBranch : Kind::kCall;
      const std::int64_t high = sign_extend((lo >> 34) | ((hi & 0x3ffff) << 30), 48);
      in.target = next + high * 1024 + std::int64_t((lo >> 16) & 0xff) * 4;
      break;
    }
    case kOpBssy:
      in.kind = Kind::kSyncPoint;
      in.target = next + sign_extend((lo >> 32) | ((hi & 0x3ffff) << 32), 50);
      break;
    case kOpExit: in.kind = Kind::kExit; break;
    case kOpRet: in.kind = Kind::kReturn; break;
    default: break;
  }
  if (in.opcode == kOpLdc || in.opcode == kOpUldc) {
    // c[bank][index + offset]: bank in bits 54..58, offset / 4 in bits 40..53, LDC's index register
    // in bits 24..31 (read off cuobjdump listings: LDC.64 R14, c[0x3][R2+0x8] is 0x00c00200020e7b82).
    // ULDC's uniform index is not decoded: taken as an immediate address.
    in.const_bank = static_cast<std::uint8_t>((lo >> 54) & 0x1f);
    in.const_offset = static_cast<std::uint32_t>(((lo >> 40) & 0x3fff) * 4);
    in.const_index = in.opcode == kOpLdc ? static_cast<std::uint8_t>((lo >> 24) & 0xff) : kRegZero;
  }
  if (in.memory()) {
    in.base = static_cast<std::uint8_t>((lo >> 24) & 0xff);
    in.imm = static_cast<std::int32_t>(sign_extend(lo >> 40, 24));
    in.width = kWidthBytes[(hi >> 9) & 7];
  }
  return in;
}

std::string describe(const Inst& in) {
  const char* name = "?";
  switch (in.kind) {
    case Kind::kLoadLocal: name = "LDL"; break;
    case Kind::kStoreLocal: name = "STL"; break;
    case Kind::kLoadShared: name = "LDS"; break;
    case Kind::kStoreShared: name = "STS"; break;
    case Kind::kLoadGlobal: name = "LDG"; break;
    case Kind::kStoreGlobal: name = "STG"; break;
    default: return fmt::format("opcode 0x{:03x} at 0x{:x}", in.opcode, in.offset);
  }
  std::string addr = in.base == kRegZero ? std::string() : fmt::format("R{}", in.base);
  if (in.imm != 0 || addr.empty()) {
    const std::string v = fmt::format("{}0x{:x}", in.imm < 0 ? "-" : "", in.imm < 0 ? -std::int64_t(in.imm) : std::int64_t(in.imm));
    addr = addr.empty() ? v : addr + (in.imm < 0 ? v : "+" + v);
  }
  const std::string width = in.width == 4 ? "" : fmt::format(".{}", in.width * 8);
  return fmt::format("{}{} [{}]", name, width, addr);
}

std::vector<Function> read_cubin(std::span<const std::uint8_t> cubin, std::string_view origin) {
  const ElfFile elf(cubin, std::string(origin));
  // e_machine 190 is EM_CUDA; bits 8..15 of e_flags hold the SM version in ptxas 13's cubins
  // (0x5a for sm_90 and sm_90a): the encoding read here is sm_90's only.
  std::uint16_t machine = 0;
  std::uint32_t flags = 0;
  std::memcpy(&machine, cubin.data() + 0x12, 2);
  std::memcpy(&flags, cubin.data() + 0x30, 4);
  if (machine != 190) fail(ErrorKind::kParse, "{}: not a CUDA cubin (e_machine {})", origin, machine);
  const unsigned sm = (flags >> 8) & 0xff;
  if (sm != 90) fail(ErrorKind::kUnsupported, "{}: machine code for sm_{} (only sm_90 is decoded)", origin, sm);

  std::vector<Function> out;
  std::map<std::string, std::size_t> by_section;
  for (const ElfSection& s : elf.sections()) {
    if (s.name.rfind(".text.", 0) != 0) continue;
    Function f;
    f.name = s.name.substr(6);
    const auto bytes = elf.section_bytes(s);
    for (std::size_t off = 0; off + 16 <= bytes.size(); off += 16) {
      std::uint64_t lo = 0, hi = 0;
      std::memcpy(&lo, bytes.data() + off, 8);
      std::memcpy(&hi, bytes.data() + off + 8, 8);
      f.code.push_back(decode_sm90(lo, hi, static_cast<std::uint32_t>(off)));
    }
    by_section[s.name] = out.size();
    out.push_back(std::move(f));
  }

  const auto lines = elf.section(".nv_debug_line_sass");
  if (!lines) return out;
  std::map<std::uint64_t, std::string> reloc;  // offset in the line table -> .text section
  for (const ElfSection& s : elf.sections()) {
    if (s.name != ".rela.nv_debug_line_sass") continue;
    for (const ElfRela& r : elf.relocations(s)) {
      if (r.symbol >= elf.symtab().size()) continue;
      const std::uint16_t sec = elf.symtab()[r.symbol].section;
      if (sec < elf.sections().size()) reloc[r.offset] = elf.sections()[sec].name;
    }
  }
  std::vector<Row> rows = line_rows(elf.section_bytes(*lines), reloc, origin);
  std::map<std::size_t, std::vector<Row>> per_function;
  for (Row& r : rows) {
    const auto it = by_section.find(r.section);
    if (it != by_section.end()) per_function[it->second].push_back(std::move(r));
  }
  for (auto& [index, fr] : per_function) {
    std::stable_sort(fr.begin(), fr.end(), [](const Row& a, const Row& b) { return a.address < b.address; });
    std::size_t k = 0;
    std::uint32_t line = 0;
    for (Inst& in : out[index].code) {
      while (k < fr.size() && fr[k].address <= in.offset) line = fr[k++].line;
      in.ptx_line = line;
    }
  }
  return out;
}

SpillPlan plan_spills(const Function& sass, std::span<const PtxInst> ptx) {
  SpillPlan plan;
  // The PTX side: blocks, loops, and which pc a PTX line is.
  const Graph pg = ptx_graph(ptx);
  std::map<std::uint32_t, std::uint32_t> pc_of_line;
  for (std::size_t pc = 0; pc < ptx.size(); ++pc)
    if (ptx[pc].ptx_line != 0) pc_of_line.emplace(ptx[pc].ptx_line, static_cast<std::uint32_t>(pc));

  // The machine-code side.
  const auto& code = sass.code;
  const Graph sg = sass_graph(sass);
  // A called subroutine is reached through its CALL: mark what it reaches as well.
  std::vector<bool> reachable = sg.reachable;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].kind != Kind::kCall || !reachable[sg.block_of[i]]) continue;
    const std::int64_t t = index_of(code[i].target);
    if (t < 0 || std::uint64_t(t) >= code.size()) continue;
    mark_reachable(sg.succ, reachable, {sg.block_of[std::size_t(t)]});
  }

  auto ptx_pc = [&](std::uint32_t line) -> std::int64_t {
    if (line == 0) return -1;
    const auto it = pc_of_line.find(line);
    if (it == pc_of_line.end()) return -1;
    return static_cast<std::int64_t>(it->second);
  };
  const std::size_t nb = sg.first.size();
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t begin = sg.first[b], end = b + 1 < nb ? sg.first[b + 1] : code.size();
    std::vector<std::size_t> spills;
    for (std::size_t i = begin; i < end; ++i) {
      const Inst& in = code[i];
      if (!in.local() || in.base != kStackPointer) continue;
      const std::int64_t pc = ptx_pc(in.ptx_line);
      if (pc >= 0 && ptx[std::size_t(pc)].local_memory) continue;  // the PTX's own local access
      spills.push_back(i);
    }
    if (spills.empty()) continue;
    if (!reachable[b]) continue;  // never runs
    // Vote: the PTX block most of this block's instructions came from, among blocks whose being in
    // a loop agrees with this one's; failing that, among all.
    std::map<std::uint32_t, std::uint32_t> strict, loose;
    for (std::size_t i = begin; i < end; ++i) {
      const std::int64_t pc = ptx_pc(code[i].ptx_line);
      if (pc < 0) continue;
      const std::uint32_t pb = pg.block_of[std::size_t(pc)];
      ++loose[pb];
      if (pg.in_loop[pb] == sg.in_loop[b]) ++strict[pb];
    }
    const auto& votes = strict.empty() ? loose : strict;
    std::int64_t chosen = -1;
    std::uint32_t best = 0;
    for (const auto& [pb, n] : votes)
      if (n > best) best = n, chosen = pb;
    std::int64_t anchor = -1;
    if (chosen >= 0) {
      const std::size_t pb = std::size_t(chosen);
      const std::size_t pend = pb + 1 < pg.first.size() ? pg.first[pb + 1] : ptx.size();
      for (std::size_t pc = pg.first[pb]; pc < pend; ++pc) {
        if (ptx[pc].anchor_ok) {
          anchor = static_cast<std::int64_t>(pc);
          break;
        }
      }
    }
    if (anchor < 0) {
      plan.unplaced += static_cast<std::uint32_t>(spills.size());
      continue;
    }
    for (std::size_t i : spills) {
      const Inst& in = code[i];
      plan.spills.push_back(Spill{static_cast<std::uint32_t>(anchor), in.kind == Kind::kStoreLocal, in.width, in.imm,
                                  in.offset, describe(in)});
    }
  }
  return plan;
}

std::vector<Merge> plan_merges(const Function& sass, std::span<const PtxInst> ptx) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> pcs_of_line;
  for (std::size_t pc = 0; pc < ptx.size(); ++pc)
    if (ptx[pc].ptx_line != 0) pcs_of_line[ptx[pc].ptx_line].push_back(static_cast<std::uint32_t>(pc));
  // The widths of the LDS (loads) and STS (stores) each PTX line became.
  std::map<std::uint32_t, std::vector<std::uint8_t>> of_line[2];
  for (const Inst& in : sass.code)
    if ((in.kind == Kind::kLoadShared || in.kind == Kind::kStoreShared) && in.ptx_line != 0)
      of_line[in.kind == Kind::kStoreShared ? 1 : 0][in.ptx_line].push_back(in.width);
  const Graph pg = ptx_graph(ptx);
  auto machine_of = [&](std::uint32_t pc, bool store) -> const std::vector<std::uint8_t>* {
    const std::uint32_t line = ptx[pc].ptx_line;
    const auto l = pcs_of_line.find(line);
    if (line == 0 || l == pcs_of_line.end() || l->second.size() != 1) return nullptr;  // one PTX instruction per line only
    const auto it = of_line[store ? 1 : 0].find(line);
    static const std::vector<std::uint8_t>& none = *new std::vector<std::uint8_t>;  // never destroyed
    return it == of_line[store ? 1 : 0].end() ? &none : &it->second;
  };
  auto shared_access = [&](const PtxInst& p, bool store) { return store ? p.shared_store : p.shared_load; };
  std::vector<Merge> out;
  std::vector<bool> taken(ptx.size(), false);
  for (std::size_t pc = 0; pc < ptx.size(); ++pc) {
    const PtxInst& p = ptx[pc];
    const bool store = p.shared_store;
    if (!shared_access(p, store) || taken[pc] || p.width == 0) continue;
    const auto* mine = machine_of(static_cast<std::uint32_t>(pc), store);
    if (mine == nullptr || mine->empty()) continue;
    const std::uint8_t w = (*mine)[0];
    if (w <= p.width || w % p.width != 0 ||
        !std::all_of(mine->begin(), mine->end(), [&](std::uint8_t x) { return x == w; }))
      continue;
    // The group: w / p.width accesses of the same register at consecutive offsets, p among them,
    // in p's block, the others with no machine-code access of their own (ptxas attributes the
    // wide one to any of the group's lines: sortingNetworks' STS.64 carries the second store's).
    const unsigned n = w / p.width;
    std::vector<std::uint32_t> group;
    for (unsigned j = 0; j < n && group.empty(); ++j) {
      const std::int64_t base = p.address_offset - std::int64_t(j) * p.width;
      std::vector<std::uint32_t> members;
      for (unsigned k = 0; k < n; ++k) {
        if (k == j) {
          members.push_back(static_cast<std::uint32_t>(pc));
          continue;
        }
        const std::int64_t want = base + std::int64_t(k) * p.width;
        std::int64_t found = -1;
        for (std::size_t q = 0; q < ptx.size(); ++q) {
          const PtxInst& o = ptx[q];
          if (q == pc || taken[q] || !shared_access(o, store) || o.width != p.width ||
              o.address_register != p.address_register || o.address_offset != want || pg.block_of[q] != pg.block_of[pc])
            continue;
          const auto* theirs = machine_of(static_cast<std::uint32_t>(q), store);
          if (theirs != nullptr && theirs->empty()) found = static_cast<std::int64_t>(q);
          break;
        }
        if (found < 0) break;
        members.push_back(static_cast<std::uint32_t>(found));
      }
      if (members.size() == n) group = std::move(members);
    }
    if (group.empty()) continue;
    // The record goes with the lowest offset's access (group[0]); the others make none.
    Merge m{group[0], w, std::vector<std::uint32_t>(group.begin() + 1, group.end())};
    for (std::uint32_t q : group) taken[q] = true;
    out.push_back(std::move(m));
  }
  // Loads ptxas answered from a register: an ld.shared with no LDS of its own whose block reads
  // the same register, offset and width earlier with an LDS, no st.shared, branch or unguarded
  // instruction with control (a barrier) between them (CUB's raking scan reads its segment twice;
  // the machine code reads it once: tests/hw/data/h200/lds, cub_blocks). The earlier load keeps
  // its width and absorbs the later ones.
  std::map<std::uint32_t, std::size_t> merge_of;  // the earlier load's pc -> its entry in out
  for (std::size_t pc = 0; pc < ptx.size(); ++pc) {
    const PtxInst& q = ptx[pc];
    if (!q.shared_load || taken[pc] || q.width == 0) continue;
    const auto* mine = machine_of(static_cast<std::uint32_t>(pc), false);
    if (mine == nullptr || !mine->empty()) continue;
    for (std::size_t k = pc; k-- > 0;) {
      const PtxInst& o = ptx[k];
      if (pg.block_of[k] != pg.block_of[pc] || o.shared_store || o.flow != PtxInst::Flow::kPlain ||
          (!o.guarded && !o.anchor_ok && !o.shared_load && !o.local_load && !o.local_memory))
        break;
      if (!o.shared_load || o.width != q.width || o.address_register != q.address_register ||
          o.address_offset != q.address_offset)
        continue;
      const auto* theirs = machine_of(static_cast<std::uint32_t>(k), false);
      if (taken[k] || theirs == nullptr ||
          !std::any_of(theirs->begin(), theirs->end(), [&](std::uint8_t x) { return x == o.width; }))
        break;
      const auto [it, fresh] = merge_of.try_emplace(static_cast<std::uint32_t>(k), out.size());
      if (fresh) out.push_back(Merge{static_cast<std::uint32_t>(k), o.width, {}});
      out[it->second].absorbed.push_back(static_cast<std::uint32_t>(pc));
      taken[pc] = true;
      break;
    }
  }
  return out;
}

namespace {

/// A natural loop of the machine code: its header and the blocks of its body (the header too).
struct Loop {
  std::uint32_t header = 0;
  std::vector<bool> body;  // per block
  std::size_t size = 0;
};

/// The natural loops of g's reachable blocks, one per header (the union of its back edges'
/// loops). False when a retreating edge does not go to a block that dominates its source (the
/// graph is not reducible: its loops are not natural loops).
bool natural_loops(const Graph& g, std::vector<Loop>& loops) {
  const std::size_t nb = g.first.size();
  if (nb == 0) return true;
  std::vector<std::vector<std::uint32_t>> pred(nb);
  for (std::uint32_t b = 0; b < nb; ++b)
    if (g.reachable[b])
      for (std::uint32_t t : g.succ[b]) pred[t].push_back(b);
  // Depth-first from the entry: postorder and the retreating edges (to a block on the stack).
  std::vector<std::uint32_t> post;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> retreating;
  std::vector<std::uint8_t> state(nb, 0);  // 0 unseen, 1 on the stack, 2 finished
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  state[0] = 1;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < g.succ[b].size()) {
      const std::uint32_t t = g.succ[b][next++];
      if (state[t] == 1) retreating.emplace_back(b, t);
      if (state[t] == 0) {
        state[t] = 1;
        stack.emplace_back(t, 0);
      }
      continue;
    }
    state[b] = 2;
    post.push_back(b);
    stack.pop_back();
  }
  // Immediate dominators (Cooper, Harvey and Kennedy: iterate over reverse postorder).
  std::vector<std::uint32_t> order(nb, 0);
  for (std::size_t i = 0; i < post.size(); ++i) order[post[i]] = static_cast<std::uint32_t>(post.size() - 1 - i);
  std::vector<std::int64_t> idom(nb, -1);
  idom[0] = 0;
  auto intersect = [&](std::int64_t a, std::int64_t b) {
    while (a != b) {
      while (order[std::size_t(a)] > order[std::size_t(b)]) a = idom[std::size_t(a)];
      while (order[std::size_t(b)] > order[std::size_t(a)]) b = idom[std::size_t(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = post.size(); i-- > 0;) {
      const std::uint32_t b = post[i];
      if (b == 0) continue;
      std::int64_t d = -1;
      for (std::uint32_t p : pred[b]) {
        if (idom[p] < 0) continue;
        d = d < 0 ? p : intersect(p, d);
      }
      if (d != idom[b]) idom[b] = d, changed = true;
    }
  }
  auto dominates = [&](std::uint32_t h, std::uint32_t u) {
    for (std::int64_t x = u;; x = idom[std::size_t(x)]) {
      if (x == h) return true;
      if (x == 0 || x < 0) return false;
    }
  };
  std::map<std::uint32_t, Loop> by_header;
  for (const auto& [u, h] : retreating) {
    if (!dominates(h, u)) return false;
    Loop& l = by_header[h];
    l.header = h;
    if (l.body.empty()) l.body.assign(nb, false);
    l.body[h] = true;
    std::vector<std::uint32_t> work{u};
    while (!work.empty()) {
      const std::uint32_t b = work.back();
      work.pop_back();
      if (l.body[b]) continue;
      l.body[b] = true;
      for (std::uint32_t p : pred[b]) work.push_back(p);
    }
  }
  for (auto& [h, l] : by_header) {
    l.size = static_cast<std::size_t>(std::count(l.body.begin(), l.body.end(), true));
    loops.push_back(std::move(l));
  }
  return true;
}

/// The paths of one PTX load through the machine code (plan_lane_groups).
class PathSearch {
 public:
  PathSearch(const Graph& g, const std::vector<Inst>& code, const std::vector<Loop>& loops,
             std::vector<std::uint32_t> copies, unsigned max_count)
      : g_(g), code_(code), copies_(std::move(copies)), max_count_(max_count) {
    const std::size_t nb = g.first.size();
    // Only loops around copies name steps; the others' iterations make no difference.
    for (const Loop& l : loops) {
      bool holds = false;
      for (std::size_t b = 0; b < nb; ++b) holds = holds || (l.body[b] && copies_[b] > 0);
      if (holds) tracked_.push_back(&l);
    }
    around_.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) {
      for (std::uint32_t t = 0; t < tracked_.size(); ++t)
        if (tracked_[t]->body[b]) around_[b].push_back(t);
      std::sort(around_[b].begin(), around_[b].end(),
                [&](std::uint32_t x, std::uint32_t y) { return tracked_[x]->size > tracked_[y]->size; });
    }
  }

  /// False when the search exceeded its bound on states.
  bool run() {
    found_.assign(max_count_ + 1, {});
    ambiguous_.assign(max_count_ + 1, false);
    State start;
    start.iters.assign(tracked_.size(), 0);
    std::vector<State> work;
    if (auto s = arrive(start, -1, 0)) work.push_back(std::move(*s));
    std::set<State> seen;
    while (!work.empty()) {
      State st = std::move(work.back());
      work.pop_back();
      if (!seen.insert(st).second) continue;
      if (seen.size() > kMaxStates) return false;
      const std::size_t nb = g_.first.size();
      const std::size_t last = (st.block + 1 < nb ? g_.first[st.block + 1] : code_.size()) - 1;
      if (code_[last].kind == Kind::kExit) record(st);
      for (std::uint32_t t : g_.succ[st.block])
        if (auto s = arrive(st, st.block, t)) work.push_back(std::move(*s));
    }
    return true;
  }

  LaneGrouping grouping() const {
    LaneGrouping out;
    out.steps = steps_;
    for (unsigned n = 0; n <= max_count_; ++n) {
      out.paths.emplace_back();
      if (n > 0 && found_[n] && !ambiguous_[n]) out.paths.back() = *found_[n];
    }
    while (!out.paths.empty() && out.paths.back().empty()) out.paths.pop_back();
    return out;
  }

 private:
  static constexpr std::size_t kMaxStates = 100000;
  struct State {
    std::uint32_t block = 0;
    std::uint32_t consumed = 0;
    std::vector<std::uint32_t> iters;  // per tracked loop: its iteration, 0 outside it
    std::vector<std::uint32_t> trace;  // the steps so far
    auto operator<=>(const State&) const = default;
  };

  std::optional<State> arrive(State st, std::int64_t from, std::uint32_t to) {
    for (std::size_t t = 0; t < tracked_.size(); ++t) {
      const Loop& l = *tracked_[t];
      if (l.header == to) {
        st.iters[t] = from >= 0 && l.body[std::size_t(from)] ? st.iters[t] + 1 : 1;
        if (st.iters[t] > max_count_ + 1) return std::nullopt;  // iterations that load nothing
      } else if (!l.body[to]) {
        st.iters[t] = 0;
      }
    }
    if (copies_[to] > 0) {
      st.consumed += copies_[to];
      if (st.consumed > max_count_) return std::nullopt;
      std::vector<std::uint32_t> key{to};
      for (std::uint32_t t : around_[to]) key.push_back(st.iters[t]);
      auto [it, added] = step_ids_.emplace(std::move(key), static_cast<std::uint32_t>(steps_.size()));
      if (added) {
        std::uint32_t first = g_.first[to];
        while (code_[first].kind != Kind::kLoadLocal) ++first;
        steps_.push_back(LaneGrouping::Step{copies_[to], code_[first].offset});
      }
      st.trace.push_back(it->second);
    }
    st.block = to;
    return st;
  }

  void record(const State& st) {
    auto& f = found_[st.consumed];
    if (!f) f = st.trace;
    else if (*f != st.trace) ambiguous_[st.consumed] = true;
  }

  const Graph& g_;
  const std::vector<Inst>& code_;
  std::vector<std::uint32_t> copies_;  // per block: copies of the load
  unsigned max_count_;
  std::vector<const Loop*> tracked_;
  std::vector<std::vector<std::uint32_t>> around_;  // per block: tracked loops containing it, outermost first
  std::map<std::vector<std::uint32_t>, std::uint32_t> step_ids_;
  std::vector<LaneGrouping::Step> steps_;
  std::vector<std::optional<std::vector<std::uint32_t>>> found_;
  std::vector<bool> ambiguous_;
};

}  // namespace

std::vector<LaneGrouping> plan_lane_groups(const Function& sass, std::span<const PtxInst> ptx, unsigned max_count) {
  std::vector<LaneGrouping> out;
  const auto& code = sass.code;
  if (code.empty()) return out;
  for (const Inst& in : code)
    if (in.kind == Kind::kCall || in.kind == Kind::kReturn) return out;
  std::map<std::uint32_t, std::vector<std::uint32_t>> loads_of_line;
  for (std::size_t pc = 0; pc < ptx.size(); ++pc)
    if (ptx[pc].local_load && ptx[pc].ptx_line != 0) loads_of_line[ptx[pc].ptx_line].push_back(static_cast<std::uint32_t>(pc));
  if (loads_of_line.empty()) return out;
  const Graph g = sass_graph(sass);
  std::vector<Loop> loops;
  const bool reducible = natural_loops(g, loops);
  const std::size_t nb = g.first.size();
  for (const auto& [line, pcs] : loads_of_line) {
    if (pcs.size() != 1) continue;
    const PtxInst& p = ptx[pcs[0]];
    std::vector<std::uint32_t> copies(nb, 0);
    std::size_t total = 0;
    bool ok = p.width != 0;
    std::int64_t first = -1;
    for (std::size_t i = 0; i < code.size(); ++i) {
      const Inst& in = code[i];
      if (in.kind != Kind::kLoadLocal || in.ptx_line != line) continue;
      if (in.width != p.width || in.guarded()) ok = false;
      if (!g.reachable[g.block_of[i]]) continue;
      ++copies[g.block_of[i]];
      ++total;
      if (first < 0) first = static_cast<std::int64_t>(i);
    }
    if (!ok || total < 2 || !reducible) continue;
    PathSearch search(g, code, loops, copies, max_count);
    if (!search.run()) continue;
    LaneGrouping lg = search.grouping();
    if (lg.paths.empty()) continue;
    lg.pc = pcs[0];
    std::string where;
    for (std::size_t b = 0; b < nb; ++b) {
      if (copies[b] == 0) continue;
      bool looped = false;
      for (const Loop& l : loops) looped = looped || l.body[b];
      where += fmt::format("{}{} at 0x{:x}{}", where.empty() ? "" : ", ", copies[b], code[g.first[b]].offset,
                           looped ? " (in a loop)" : "");
    }
    lg.text = fmt::format("{} copied by ptxas: {}", describe(code[std::size_t(first)]), where);
    out.push_back(std::move(lg));
  }
  return out;
}

}  // namespace warpscope::analysis::sass
