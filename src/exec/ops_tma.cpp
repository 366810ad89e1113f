// The Tensor Memory Accelerator's instructions (PTX ISA 9.0, sections 9.7.9.25-27):
// cp.async.bulk.tensor (tile mode, 1-5-D, load global -> shared with mbarrier completion, store
// shared -> global with bulk-group completion), cp.async.bulk global <- shared (bulk group),
// cp.async.bulk.commit_group / wait_group, cp.async.bulk.prefetch(.tensor), prefetch.tensormap;
// cp.reduce.async.bulk(.tensor) shared::cta -> global with bulk-group completion (section
// 9.7.9.25.4.2 and 9.7.9.27.2; the element operations in bulk_reduce.cpp).
// docs/exec.md "Bulk copies and the TMA".
//
// As for cp.async (ops_async.cpp), a copy is performed when it is issued; the groups and waits
// then have nothing left to wait for. The box layout in shared memory and the out-of-bounds rules
// are those measured on an H100 (tests/hw/data/h100/tma, tensormap.hpp).
#include <string>

#include "exec/async.hpp"
#include "exec/bulk_reduce.hpp"
#include "exec/dsmem_bulk.hpp"
#include "exec/memaccess.hpp"
#include "exec/ops_common.hpp"
#include "exec/sanitize.hpp"
#include "exec/tensormap.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;

// Inst::aux of a tensor copy: bits 0-2 the dimensionality; the flags below. A reduction (kReduce,
// with kStore) has its ptx::ReduceOp in Inst::aux2; a bulk reduction its ReduceOp in aux2's low
// byte and its bulkred::Elem in the next.
enum : std::uint32_t { kStore = 8, kReduce = 16, kBarAddr32 = 32, kClusterDst = 64, kMulticast = 128, kIm2col = 256 };
// Slots: a = shared address (+imm), b = tensor map address, c = mbarrier address, e = its offset
// (a constant slot), v[0..3] and d2 = coordinates 0..4, d = the tensor map offset (a constant).
// A load keeps its .im2col offsets' slots (rank - 2 of them), then its .multicast::cluster
// ctaMask's slot, in KernelImage::operand_lists at aux2.

/// The tensor map a lane names: in the kernel's parameters (a __grid_constant__ parameter made
/// generic by cvta.param) or in global/constant memory.
tma::EncodedMap lane_map(Ctx& x, const Inst& in, unsigned lane) {
  const std::uint64_t addr = x.reg(in.b)[lane] + x.reg(in.d)[lane];
  const std::uint8_t* p = nullptr;
  if (addr - kParamWindow < kWindowBytes) {
    const std::uint64_t off = addr - kParamWindow;
    if (off > x.kparam_size || x.kparam_size - off < 128)
      lane_fault(x, x.pc_of(in), ErrorKind::kOutOfBounds, lane,
                 fmt::format("the tensor map at parameter offset 0x{:x} lies outside the kernel's parameters", off));
    p = x.kparams + off;
  } else {
    if (addr % 64 != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kMisaligned, lane, fmt::format("the tensor map at 0x{:x} is not 64-byte aligned", addr));
    Space sp;
    std::uint64_t sa;
    p = translate<MemSpace::kGlobal>(x, in, lane, addr, 64, Op::kLoad, sp, sa);
    if (x.gcache == nullptr || !x.gcache->contains(addr, 128)) p = nullptr;
    if (p == nullptr)
      lane_fault(x, x.pc_of(in), ErrorKind::kOutOfBounds, lane, fmt::format("the tensor map at 0x{:x} is not 128 bytes of device memory", addr));
  }
  const std::optional<tma::EncodedMap> m = tma::decode(p);
  if (!m)
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
               fmt::format("the tensor map at 0x{:x} was not made by cuTensorMapEncodeTiled/Im2col", addr));
  return *m;
}

/// One box row: its first element's coordinates are `coord`; `row` its index in the box.
struct BoxRow {
  std::int64_t coord[tma::kMaxRank];
  std::uint64_t row;
};

/// Calls f(row) for every row (a run along dimension 0) of the box, in the order the box is laid
/// out in shared memory (dimension 1 fastest).
template <class F>
void for_rows(const tma::EncodedMap& m, const std::int32_t* start, F&& f) {
  unsigned n[tma::kMaxRank] = {1, 1, 1, 1, 1};
  for (unsigned d = 1; d < m.rank; ++d) n[d] = tma::box_elements(m, d);
  BoxRow r{};
  unsigned i[tma::kMaxRank] = {};
  for (r.row = 0;; ++r.row) {
    r.coord[0] = start[0];
    for (unsigned d = 1; d < m.rank; ++d) r.coord[d] = std::int64_t{start[d]} + std::int64_t{i[d]} * m.element_strides[d];
    f(r);
    unsigned d = 1;
    for (; d < m.rank; ++d) {
      if (++i[d] < n[d]) break;
      i[d] = 0;
    }
    if (d >= m.rank) return;
  }
}

/// Whether the row's outer coordinates are inside the tensor, and its global address (element 0).
bool row_address(const tma::EncodedMap& m, const BoxRow& r, std::uint64_t& addr) {
  bool in = true;
  addr = m.global_address + static_cast<std::uint64_t>(r.coord[0] * tma::element_bytes(m.data_type));
  for (unsigned d = 1; d < m.rank; ++d) {
    if (r.coord[d] < 0 || r.coord[d] > std::int64_t{m.dims[d]}) in = false;
    addr += static_cast<std::uint64_t>(r.coord[d]) * m.strides[d - 1];
  }
  return in;
}

/// The global side of one box row for the memory model: lanes of 16 bytes over [addr, addr+n), in
/// records of at most `piece_bytes` from the row's start (each record's sectors are counted once).
/// A tensor copy's records also carry where the row lies in shared memory (`shared`: the address
/// of its first byte before the swizzle) and the swizzle span (WarpAccess::fill_lanes /
/// no_read_lanes, access.hpp), for the box picture and the swizzle advice.
void emit_row(Ctx& x, const Inst& in, Op op, std::uint64_t addr, std::uint64_t n, unsigned& part, bool tensor = true,
              std::uint64_t shared = 0, unsigned swizzle_bytes = 0, unsigned destinations = 1,
              std::uint64_t piece_bytes = 32 * 16) {
  WarpAccess rec;
  rec.destinations = static_cast<std::uint8_t>(destinations);
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.space = Space::kGlobal;
  rec.op = op;
  rec.cache = CacheOp::kCg;
  rec.width = 16;
  rec.tensor = tensor;
  const std::uint64_t lo = addr & ~std::uint64_t{15}, hi = (addr + n + 15) & ~std::uint64_t{15};
  for (std::uint64_t a = lo; a < hi; a += piece_bytes) {
    const std::uint64_t lanes = std::min<std::uint64_t>(piece_bytes / 16, (hi - a) / 16);
    rec.part = static_cast<std::uint8_t>(std::min(part++, 255u));
    rec.active = LaneMask(lanes >= 32 ? kFullMask : (1u << lanes) - 1u);
    rec.addr.fill(0);
    for (unsigned l = 0; l < lanes; ++l) rec.addr[l] = a + 16 * l;
    if (tensor) {
      rec.fill_lanes = static_cast<std::uint32_t>(shared + (a - lo));
      rec.no_read_lanes = swizzle_bytes;
    }
    x.sink->on_access(rec);
  }
}

/// racecheck (sanitize.hpp): a box row's 16-byte pieces at their swizzled places in each of the
/// `count` destinations, written by the copy until its mbarrier phase completes.
void race_write(Ctx& x, const Inst& in, unsigned l, const BulkDest* to, unsigned count, std::uint64_t base,
                std::uint64_t row_bytes, tma::Swizzle sw) {
  if (x.race == nullptr) return;
  for (unsigned t = 0; t < count; ++t)
    for (std::uint64_t k = 0; k < row_bytes; k += 16)
      x.race->bulk_write(x.warp_index, l, x.pc_of(in), to[t].bar, tma::swizzle(base + k, sw), 16, false);
}

/// The element type a tensor reduction reduces, from its tensor map. Pairs outside the PTX ISA's
/// list for cp.reduce.async.bulk stop the H100 with cudaErrorIllegalInstruction (measured: UINT8
/// add, FLOAT32 max; tests/hw/data/h100/tma_more), and so did a box starting at (-8, -2): faults
/// of the undefined kind here too. and/or/xor on maps other than UINT32 and TFLOAT32_FTZ maps were
/// not measured: refused.
bulkred::Elem reduce_elem(const Ctx& x, const Inst& in, unsigned l, const tma::EncodedMap& m, ptx::ReduceOp op,
                          const std::int32_t* c, unsigned dims) {
  const std::optional<bulkred::Elem> e = bulkred::from_tensor_map(m.data_type);
  const bool bitwise = op == ptx::ReduceOp::kAnd || op == ptx::ReduceOp::kOr || op == ptx::ReduceOp::kXor;
  if ((e && bitwise && *e != bulkred::Elem::kU32) || m.data_type == 12)
    lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l,
               fmt::format("cp.reduce.async.bulk.tensor .{} on this tensor map (not measured on the H100) ({})",
                           ptx::to_string(op), tma::describe(m)));
  if (!e || !(bitwise || bulkred::valid(op, *e)))
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
               fmt::format("cp.reduce.async.bulk.tensor .{} on a tensor map of {} elements, a pair the PTX ISA does not "
                           "list: the H100 stops with an illegal instruction ({})",
                           ptx::to_string(op), e ? bulkred::name(*e) : std::string_view("these"), tma::describe(m)));
  for (unsigned d = 0; d < dims; ++d)
    if (c[d] < 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("a tensor reduction whose box starts at a negative coordinate ({} in dimension {}): the "
                             "H100 stopped with an illegal instruction on one at (-8, -2) ({})",
                             c[d], d, tma::describe(m)));
  return *e;
}

/// The global address of an im2col pixel's first channel (px[0]) in `ga`; whether its spatial
/// coordinates and image lie inside the tensor.
bool pixel_address(const tma::EncodedMap& m, const tma::Pixel& px, unsigned es, std::uint64_t& ga) {
  bool in_tensor = true;
  ga = m.global_address + static_cast<std::uint64_t>(px[0] * es);
  for (unsigned d = 1; d < m.rank; ++d) {
    if (px[d] < 0 || px[d] > std::int64_t{m.dims[d]}) in_tensor = false;
    ga += static_cast<std::uint64_t>(px[d]) * m.strides[d - 1];
  }
  return in_tensor;
}

/// The rows of an im2col load (tests/hw/data/h100/tma_im2col): pixel p's channelsPerPixel
/// elements at shared row p (row pitch and swizzle as in tile mode); elements outside the tensor
/// (a pixel out of it, or channels past its end) read as the fill. Every row is read from global
/// memory as a whole, out-of-bounds pixels too (ncu case 1: 64 sectors for 32 pixels of 64 bytes),
/// once for all `count` destinations (a peer's, or a ctaMask's CTAs: tests/hw/data/h100/tma_more,
/// peer_more cases 1, 2).
void im2col_rows(Ctx& x, const Inst& in, unsigned l, const tma::EncodedMap& m, const std::vector<tma::Pixel>& pixels,
                 std::uint64_t sh, std::uint64_t pitch, unsigned span, const std::uint8_t* fill, std::vector<std::uint8_t>& buf,
                 unsigned& part, const BulkDest* to, unsigned count, bool remote) {
  const unsigned es = tma::element_bytes(m.data_type);
  const tma::Swizzle sw = static_cast<tma::Swizzle>(m.swizzle);
  const std::uint64_t row_bytes = buf.size();
  const std::int64_t dim0 = std::int64_t{m.dims[0]} + 1;
  for (std::size_t p = 0; p < pixels.size(); ++p) {
    const tma::Pixel& px = pixels[p];
    std::uint64_t ga = 0;
    const bool in_tensor = pixel_address(m, px, es, ga);
    const std::int64_t j1 = in_tensor ? std::clamp<std::int64_t>(dim0 - px[0], 0, m.channels) : 0;
    for (unsigned j = 0; j < m.channels; ++j) std::memcpy(buf.data() + std::size_t(j) * es, fill, es);
    for (std::int64_t j = 0; j < j1; ++j) {
      Space sp;
      std::uint64_t sa;
      const std::uint8_t* q = translate<MemSpace::kGlobal>(x, in, l, ga + static_cast<std::uint64_t>(j) * es, es, Op::kLoad, sp, sa);
      std::memcpy(buf.data() + j * es, q, es);
    }
    const std::uint64_t base = sh + p * pitch;
    for (unsigned t = 0; t < count; ++t)
      for (std::uint64_t k = 0; k < row_bytes; k += 16) std::memcpy(to[t].shared + tma::swizzle(base + k, sw), buf.data() + k, 16);
    race_write(x, in, l, to, count, base, row_bytes, sw);
    if (x.sink != nullptr) {
      emit_row(x, in, Op::kBulkCopy, ga, row_bytes, part, true, base, span, count);
      if (remote) emit_row(x, in, Op::kBulkCopy, ga, 16, part, true, base, span, count);
    }
  }
}

/// What the H100 does not run of .im2col_no_offs stores and reductions
/// (tests/hw/data/h100/tma_im2col/store_probe.txt): a map whose pixel box has a lower corner other
/// than 0 stops it with an illegal instruction (3 of 3 tried); a swizzled map stopped it with an
/// illegal address (3 of 3, 128-byte swizzle), and upper corners other than 0 were not tried.
void im2col_store_checks(const Ctx& x, const Inst& in, unsigned l, const tma::EncodedMap& m) {
  for (unsigned d = 0; d + 2 < m.rank; ++d) {
    if (m.lower[d] != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("an .im2col_no_offs tensor store or reduction with a pixel box lower corner of {}: the H100 "
                             "stops with an illegal instruction unless the corners are 0 ({})",
                             m.lower[d], tma::describe(m)));
    if (m.upper[d] != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l,
                 fmt::format("an .im2col_no_offs tensor store or reduction with a pixel box upper corner of {} (only "
                             "corners of 0 were measured on the H100) ({})",
                             m.upper[d], tma::describe(m)));
  }
  if (m.swizzle != 0)
    lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l,
               fmt::format("a swizzled .im2col_no_offs tensor store or reduction (the one swizzle tried, 128 bytes, stopped "
                           "the H100 with an illegal address) ({})",
                           tma::describe(m)));
}

/// The rows of an .im2col_no_offs store or reduction: shared row p (row pitch and swizzle as in
/// tile mode) goes to pixel p's channelsPerPixel elements; pixels outside the tensor (the walk
/// past its last image) and channels past its end are not written (store_probe cases 2, 4).
/// Records: the written part of each row, as tile stores (kBulkStore / kBulkRed).
void im2col_store_rows(Ctx& x, const Inst& in, unsigned l, const tma::EncodedMap& m, const std::vector<tma::Pixel>& pixels,
                       std::uint64_t sh, std::uint64_t pitch, unsigned span, bool reduce, ptx::ReduceOp red_op,
                       bulkred::Elem elem, std::vector<std::uint8_t>& buf, unsigned& part) {
  const unsigned es = tma::element_bytes(m.data_type);
  const tma::Swizzle sw = static_cast<tma::Swizzle>(m.swizzle);
  const std::int64_t dim0 = std::int64_t{m.dims[0]} + 1;
  const Op op = reduce ? Op::kBulkRed : Op::kBulkStore;
  for (std::size_t p = 0; p < pixels.size(); ++p) {
    const tma::Pixel& px = pixels[p];
    std::uint64_t ga = 0;
    const bool in_tensor = pixel_address(m, px, es, ga) && px[0] >= 0;
    const std::int64_t j1 = in_tensor ? std::clamp<std::int64_t>(dim0 - px[0], 0, m.channels) : 0;
    if (j1 == 0) continue;
    const std::uint64_t base = sh + p * pitch;
    for (std::uint64_t k = 0; k < buf.size(); k += 16) std::memcpy(buf.data() + k, x.shared + tma::swizzle(base + k, sw), 16);
    if (x.race != nullptr)
      for (std::uint64_t k = 0; k < buf.size(); k += 16) x.race->bulk_read(x.warp_index, l, x.pc_of(in), tma::swizzle(base + k, sw), 16);
    for (std::int64_t j = 0; j < j1; ++j) {
      Space sp;
      std::uint64_t sa;
      std::uint8_t* q = translate<MemSpace::kGlobal>(x, in, l, ga + static_cast<std::uint64_t>(j) * es, es, op, sp, sa);
      if (reduce) bulkred::reduce(red_op, elem, q, buf.data() + j * es, es, x.atomic_global);
      else std::memcpy(q, buf.data() + j * es, es);
    }
    if (x.sink != nullptr) emit_row(x, in, op, ga, static_cast<std::uint64_t>(j1) * es, part, true, base, span);
  }
}

void tensor_copy(const Inst& in, Ctx& x, std::uint32_t mask) {
  const bool store = (in.aux & kStore) != 0, reduce = (in.aux & kReduce) != 0;
  const auto red_op = static_cast<ptx::ReduceOp>(in.aux2);
  const unsigned dims = in.aux & 7;
  const std::uint32_t slots[tma::kMaxRank] = {in.v[0], in.v[1], in.v[2], in.v[3], in.d2};
  for_lanes(mask, [&](unsigned l) {
    const tma::EncodedMap m = lane_map(x, in, l);
    const bool im2col = (in.aux & kIm2col) != 0;
    if (m.im2col && !im2col)
      lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l,
                 fmt::format("a .tile tensor copy with an im2col tensor map (not measured on the H100) ({})", tma::describe(m)));
    if (im2col && !m.im2col)
      lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l,
                 fmt::format("an .im2col tensor copy with a tiled tensor map (not measured on the H100) ({})", tma::describe(m)));
    if (m.interleave != 0) lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, l, "a tensor map with interleave (not supported)");
    if (m.rank != dims)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("a .{}d tensor copy with a {}-D tensor map ({})", dims, m.rank, tma::describe(m)));
    std::int32_t c[tma::kMaxRank] = {};
    for (unsigned d = 0; d < dims; ++d) c[d] = static_cast<std::int32_t>(x.reg(slots[d])[l]);
    const unsigned es = tma::element_bytes(m.data_type);
    bulkred::Elem elem = bulkred::Elem::kU32;
    if (reduce) elem = reduce_elem(x, in, l, m, red_op, c, dims);
    if ((std::int64_t{c[0]} * es) % 16 != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("a tensor copy whose box starts at x = {} ({} bytes, not a multiple of 16): the H100 stops "
                             "with an illegal instruction ({})", c[0], std::int64_t{c[0]} * es, tma::describe(m)));
    std::uint64_t sh = x.reg(in.a)[l] + static_cast<std::uint64_t>(in.imm);
    if (in.flags & kFlagAddr32) sh &= 0xffffffffu;
    // A load's destinations: this CTA, a peer (a shared::cluster address), or a ctaMask's CTAs.
    BulkDest to[16];
    unsigned count = 1;
    to[0].shared = x.shared;
    if (!store) {
      std::uint64_t bar_addr = x.reg(in.c)[l] + x.reg(in.e)[l];
      if (in.aux & kBarAddr32) bar_addr &= 0xffffffffu;
      // The ctaMask's slot follows the im2col offsets' in the operand list (decode_tma).
      const std::uint64_t* cta_mask =
          (in.aux & kMulticast) ? x.reg(x.kernel->operand_lists[in.aux2 + ((in.aux & kIm2col) ? dims - 2 : 0)]) + l : nullptr;
      const std::uint64_t shown = sh;
      count = bulk_destinations(x, in, l, shown, bar_addr, (in.aux & kClusterDst) != 0, cta_mask, sh, to);
    }
    // A load into another CTA's shared memory, or multicast, reads one more sector per box row
    // (the row's first, again) than the same load into the CTA's own: 5 for a 128-byte row 32 bytes
    // into a line, 2 for a 32-byte row, tile and im2col, peer and ctaMask with or without the
    // issuing CTA (tests/hw/data/h100/tma_more: peer_probe cases 1, 3; peer_more cases 0-2).
    const bool remote = !store && ((in.aux & kMulticast) != 0 || to[0].shared != x.shared);
    if (sh % 128 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, sh, 128, Space::kShared, store ? Op::kLoad : Op::kStore, false, " (a tensor copy's shared memory is 128-byte aligned)");
    const tma::Swizzle sw = static_cast<tma::Swizzle>(m.swizzle);
    const std::uint64_t row_bytes = std::uint64_t{im2col ? m.channels : m.box[0]} * es, pitch = tma::row_pitch(row_bytes, sw);
    const unsigned span = sw == tma::Swizzle::kNone ? 0u : 16u << static_cast<unsigned>(sw);  // 32, 64, 128 bytes
    std::uint64_t rows = im2col ? m.pixels : 1;
    for (unsigned d = 1; d < m.rank && !im2col; ++d) rows *= tma::box_elements(m, d);
    std::vector<tma::Pixel> pixels;
    if (im2col) {
      std::uint16_t offs[3] = {};  // .im2col_no_offs stores: none
      for (unsigned k = 0; k + 2 < dims && !store; ++k)
        offs[k] = static_cast<std::uint16_t>(x.reg(x.kernel->operand_lists[in.aux2 + k])[l]);
      if (store) im2col_store_checks(x, in, l, m);
      if (const auto why = tma::im2col_pixels(m, c, offs, pixels))
        lane_fault(x, x.pc_of(in), why->unsupported ? ErrorKind::kUnsupported : ErrorKind::kUndefined, l,
                   fmt::format("{} ({})", why->what, tma::describe(m)));
    }
    if (sh > x.shared_size || (x.shared_size - sh) < rows * pitch)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, sh, 16, Space::kShared, store ? Op::kLoad : Op::kStore, false,
                   " (the shared side of a tensor copy)");
    const std::int64_t dim0 = std::int64_t{m.dims[0]} + 1;
    std::uint8_t fill[8];
    for (unsigned k = 0; k < es; k += 2) {
      const std::uint16_t v = m.oob_fill ? 0x7ff7 : 0;  // the H100's NaN request (case 8: FLOAT32)
      std::memcpy(fill + k, &v, std::min(2u, es - k));
    }
    std::vector<std::uint8_t> buf(row_bytes);
    unsigned part = 0;
    if (im2col && store) {
      im2col_store_rows(x, in, l, m, pixels, sh, pitch, span, reduce, red_op, elem, buf, part);
      return;
    }
    if (im2col) {
      im2col_rows(x, in, l, m, pixels, sh, pitch, span, fill, buf, part, to, count, remote);
      for (unsigned t = 0; t < count; ++t) bulk_complete_tx(x, in, l, to[t].bar, static_cast<std::uint32_t>(tma::box_bytes(m)));
      return;
    }
    for_rows(m, c, [&](const BoxRow& r) {
      std::uint64_t ga;
      const bool row_in = row_address(m, r, ga);
      // The in-bounds elements of the row: [j0, j1).
      std::int64_t j0 = row_in ? std::max<std::int64_t>(0, -r.coord[0]) : 0;
      std::int64_t j1 = row_in ? std::min<std::int64_t>(m.box[0], dim0 - r.coord[0]) : 0;
      if (j1 < j0) j1 = j0;
      const std::uint64_t base = sh + r.row * pitch;
      if (!store) {
        for (unsigned j = 0; j < m.box[0]; ++j) std::memcpy(buf.data() + std::size_t(j) * es, fill, es);
        for (std::int64_t j = j0; j < j1; ++j) {
          Space sp;
          std::uint64_t sa;
          const std::uint8_t* p = translate<MemSpace::kGlobal>(x, in, l, ga + static_cast<std::uint64_t>(j) * es, es, Op::kLoad, sp, sa);
          std::memcpy(buf.data() + j * es, p, es);
        }
        for (unsigned t = 0; t < count; ++t)
          for (std::uint64_t k = 0; k < row_bytes; k += 16) std::memcpy(to[t].shared + tma::swizzle(base + k, sw), buf.data() + k, 16);
        race_write(x, in, l, to, count, base, row_bytes, sw);
        // The H100 reads the whole box row, out-of-bounds parts too (case 1), from L2 once for all
        // destinations (tma_more, peer_probe case 3), in 128-byte pieces from the row's start, the
        // sectors of each piece once (tests/hw/data/h100/tma/sectors_*: a 256-byte row 16 bytes
        // into a line reads 10 sectors, 5 + 5, where 9 hold it; 96 of 96 configurations).
        if (x.sink != nullptr) {
          emit_row(x, in, Op::kBulkCopy, ga, row_bytes, part, true, base, span, count, 128);
          if (remote) emit_row(x, in, Op::kBulkCopy, ga, 16, part, true, base, span, count, 128);
        }
      } else {
        for (std::uint64_t k = 0; k < row_bytes; k += 16) std::memcpy(buf.data() + k, x.shared + tma::swizzle(base + k, sw), 16);
        if (x.race != nullptr)
          for (std::uint64_t k = 0; k < row_bytes; k += 16) x.race->bulk_read(x.warp_index, l, x.pc_of(in), tma::swizzle(base + k, sw), 16);
        const Op op = reduce ? Op::kBulkRed : Op::kBulkStore;
        for (std::int64_t j = j0; j < j1; ++j) {
          Space sp;
          std::uint64_t sa;
          std::uint8_t* p = translate<MemSpace::kGlobal>(x, in, l, ga + static_cast<std::uint64_t>(j) * es, es, op, sp, sa);
          if (reduce) bulkred::reduce(red_op, elem, p, buf.data() + j * es, es, x.atomic_global);
          else std::memcpy(p, buf.data() + j * es, es);
        }
        // Only the in-bounds elements are written (case 16) or reduced (tma_more, tensor case 1).
        if (x.sink != nullptr && j1 > j0)
          emit_row(x, in, op, ga + static_cast<std::uint64_t>(j0) * es, static_cast<std::uint64_t>(j1 - j0) * es, part,
                   true, base + static_cast<std::uint64_t>(j0) * es, span);
      }
    });
    if (!store)
      for (unsigned t = 0; t < count; ++t) bulk_complete_tx(x, in, l, to[t].bar, static_cast<std::uint32_t>(tma::box_bytes(m)));
  });
}

/// A shared-to-global bulk operation's operands for lane `l` (global address, shared offset, byte
/// count), checked as cp.async.bulk and cp.reduce.async.bulk require: 16-byte multiples and
/// alignment, the source inside shared memory. `what` names the instruction in faults.
struct BulkOperands {
  std::uint64_t global = 0, shared = 0, bytes = 0;
};
BulkOperands bulk_operands(const Inst& in, Ctx& x, unsigned l, Op global_op, const char* what) {
  BulkOperands o;
  o.global = x.reg(in.a)[l] + static_cast<std::uint64_t>(in.imm);
  o.shared = x.reg(in.b)[l] + x.reg(in.c)[l];
  if (in.flags & kFlagAddr32) o.shared &= 0xffffffffu;
  o.bytes = x.reg(in.e)[l] & 0xffffffffu;
  const std::string where = fmt::format(" ({})", what);
  if (o.bytes % 16 != 0)
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l, fmt::format("{} of {} bytes (a multiple of 16 is required)", what, o.bytes));
  if (o.global % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, o.global, 16, Space::kGlobal, global_op, false, where.c_str());
  if (o.shared % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, o.shared, 16, Space::kShared, Op::kLoad, false, where.c_str());
  if (o.shared > x.shared_size || x.shared_size - o.shared < o.bytes)
    memory_fault(x, in, ErrorKind::kOutOfBounds, l, o.shared, 16, Space::kShared, Op::kLoad, false, where.c_str());
  return o;
}

/// cp.async.bulk.global.shared::cta.bulk_group: `size` bytes from shared memory to global memory.
void bulk_store(const Inst& in, Ctx& x, std::uint32_t mask) {
  for_lanes(mask, [&](unsigned l) {
    const auto [g, s, n] = bulk_operands(in, x, l, Op::kStore, "cp.async.bulk");
    if (x.race != nullptr) x.race->bulk_read(x.warp_index, l, x.pc_of(in), s, n);  // racecheck: the source
    for (std::uint64_t k = 0; k < n; k += 16) {
      Space sp;
      std::uint64_t sa;
      std::memcpy(translate<MemSpace::kGlobal>(x, in, l, g + k, 16, Op::kStore, sp, sa), x.shared + s + k, 16);
    }
    unsigned part = 0;
    if (x.sink != nullptr && n != 0) emit_row(x, in, Op::kBulkStore, g, n, part, false);
  });
}

/// cp.reduce.async.bulk.global.shared::cta.bulk_group: `size` bytes of shared memory reduced into
/// global memory element by element. The H100 moves the source in 128-byte pieces, each one
/// request per 128-byte global line it touches: a record per piece (tma_more, ncu bulk 3: 496
/// bytes to an address 80 bytes into a line count 19 sectors, 8 L2 requests).
void bulk_reduce(const Inst& in, Ctx& x, std::uint32_t mask) {
  const auto op = static_cast<ptx::ReduceOp>(in.aux2 & 0xff);
  const auto elem = static_cast<bulkred::Elem>(in.aux2 >> 8);
  for_lanes(mask, [&](unsigned l) {
    const auto [g, s, n] = bulk_operands(in, x, l, Op::kBulkRed, "cp.reduce.async.bulk");
    if (x.race != nullptr) x.race->bulk_read(x.warp_index, l, x.pc_of(in), s, n);  // racecheck: the source
    for (std::uint64_t k = 0; k < n; k += 16) {
      Space sp;
      std::uint64_t sa;
      std::uint8_t* p = translate<MemSpace::kGlobal>(x, in, l, g + k, 16, Op::kBulkRed, sp, sa);
      bulkred::reduce(op, elem, p, x.shared + s + k, 16, x.atomic_global);
    }
    unsigned part = 0;
    if (x.sink != nullptr)
      for (std::uint64_t k = 0; k < n; k += 128) emit_row(x, in, Op::kBulkRed, g + k, std::min<std::uint64_t>(128, n - k), part, false);
  });
}

/// A tensor copy's or reduction's `[tensorMap, {coordinates}]` operand: the map's register in b,
/// its offset in d, the coordinates in v[0..3] and d2 (ops_tma's slot layout).
void decode_tensor_operand(DecodeCtx& dc, const ptx::Operand& map, Inst& out) {
  if (map.addr_base != ptx::AddressBase::kReg) dc.unsupported("a tensor map that is not in a register");
  ptx::Operand reg;
  reg.kind = ptx::OperandKind::kReg;
  reg.reg = map.reg;
  reg.pos = map.pos;
  out.b = dc.src(reg, ptx::Type::kU64);
  out.d = dc.constant(static_cast<std::uint64_t>(map.offset));
  std::uint32_t* const coord[] = {&out.v[0], &out.v[1], &out.v[2], &out.v[3], &out.d2};
  for (std::size_t k = 0; k < map.elements.size() && k < tma::kMaxRank; ++k) *coord[k] = dc.src(map.elements[k], ptx::Type::kS32);
}

void nop(const Inst&, Ctx&, std::uint32_t) {}

/// cp.async.bulk.commit_group and wait_group{.read} N: the operations are done already (the top
/// of this file); racecheck follows the bulk async-groups (sanitize.hpp).
void bulk_commit(const Inst&, Ctx& x, std::uint32_t m) {
  if (x.race != nullptr) x.race->bulk_commit(x.warp_index, m);
}
void bulk_wait(const Inst& in, Ctx& x, std::uint32_t m) {
  if (x.race != nullptr) x.race->bulk_wait(x.warp_index, m, static_cast<std::uint32_t>(in.imm));
}

/// cp.reduce.async.bulk(.tensor) from shared::cta to global memory with bulk-group completion.
bool decode_reduce(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  if (ins.space == ptx::StateSpace::kSharedCluster && ins.src_space == ptx::StateSpace::kShared && !ins.tensor)
    return decode_dsmem_bulk(dc, ins, out);
  if (ins.space != ptx::StateSpace::kGlobal) dc.unsupported("cp.reduce.async.bulk into this state space");
  if (ins.src_space != ptx::StateSpace::kShared && !ins.tensor)
    dc.unsupported("cp.reduce.async.bulk from a space other than shared::cta");
  if (ins.reduce == ptx::ReduceOp::kNone) dc.unsupported("cp.reduce.async.bulk without a reduction operation");
  if (ins.tensor) {
    const bool no_offs = ins.tensor_mode == ptx::TensorMode::kIm2colNoOffs;
    if (ins.tensor_mode != ptx::TensorMode::kTile && !no_offs)
      dc.unsupported("cp.reduce.async.bulk.tensor in a mode other than .tile and .im2col_no_offs");
    if (no_offs && ins.tensor_dims < 3) dc.unsupported(".im2col_no_offs with fewer than 3 dimensions (the PTX ISA allows 3 to 5)");
    const ptx::Operand& map = ops[0];
    if (ops.size() > 2 + (ins.l2_cache_hint ? 1 : 0)) dc.unsupported("extra operands of a tensor reduction");
    decode_tensor_operand(dc, map, out);
    const AddrOperand sh = dc.address(ops[1], ptx::StateSpace::kShared);
    if (sh.mode != AddrOperand::Mode::kPlain) dc.unsupported("a tensor reduction's shared operand");
    out.a = sh.slot;
    out.imm = sh.imm;
    if (sh.reg32) out.flags |= kFlagAddr32;
    out.aux = ins.tensor_dims | kStore | kReduce | (no_offs ? kIm2col : 0u);
    out.aux2 = static_cast<std::uint32_t>(ins.reduce);
    out.fn = &tensor_copy;
    return true;
  }
  const std::optional<bulkred::Elem> e = bulkred::from_ptx(ins.type);
  if (!e || !bulkred::valid(ins.reduce, *e))
    dc.unsupported(fmt::format("cp.reduce.async.bulk .{}.{} (not a combination the PTX ISA lists)", ptx::to_string(ins.reduce),
                               ptx::to_string(ins.type)));
  if ((*e == bulkred::Elem::kF16 || *e == bulkred::Elem::kBF16) && ins.reduce == ptx::ReduceOp::kAdd && !ins.noftz)
    dc.unsupported("cp.reduce.async.bulk .add.f16/.bf16 without .noftz");
  if (ops.size() < 3) dc.unsupported("cp.reduce.async.bulk without [dst], [src], size");
  const AddrOperand g = dc.address(ops[0], ptx::StateSpace::kGlobal);
  const AddrOperand s = dc.address(ops[1], ptx::StateSpace::kShared);
  if (g.mode != AddrOperand::Mode::kPlain || s.mode != AddrOperand::Mode::kPlain) dc.unsupported("cp.reduce.async.bulk between these operands");
  out.a = g.slot;
  out.imm = g.imm;
  out.b = s.slot;
  out.c = dc.constant(static_cast<std::uint64_t>(s.imm));
  if (s.reg32) out.flags |= kFlagAddr32;
  out.e = dc.src(ops[2], ptx::Type::kU32);
  out.aux2 = static_cast<std::uint32_t>(ins.reduce) | (static_cast<std::uint32_t>(*e) << 8);
  out.fn = &bulk_reduce;
  return true;
}

}  // namespace

bool decode_tma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kCpAsyncBulkTensor: {
      const bool store = ins.bulk_group;
      // .im2col loads and .im2col_no_offs stores are modelled (tests/hw/data/h100/tma_im2col).
      const bool no_offs = ins.tensor_mode == ptx::TensorMode::kIm2colNoOffs;
      const bool im2col = (ins.tensor_mode == ptx::TensorMode::kIm2col && !store) || (no_offs && store);
      if (ins.tensor_mode != ptx::TensorMode::kTile && !im2col)
        dc.unsupported(store ? "a tensor store in a mode other than .tile and .im2col_no_offs"
                             : "a tensor load in a mode other than .tile and .im2col");
      if (im2col && store && ins.tensor_dims < 3) dc.unsupported(".im2col_no_offs with fewer than 3 dimensions (the PTX ISA allows 3 to 5)");
      if (ins.cta_group) dc.unsupported(".cta_group");
      const ptx::Operand& map = ops[store ? 0 : 1];
      const std::size_t used = store ? 2 : (im2col ? 4 : 3) + (ins.multicast ? 1 : 0);
      if (im2col && !store) {
        if (ins.tensor_dims < 3) dc.unsupported(".im2col with fewer than 3 dimensions (the PTX ISA allows 3 to 5)");
        if (ops[1].elements.size() != ins.tensor_dims)
          dc.unsupported(fmt::format("an .im2col load with {} coordinates for .{}d", ops[1].elements.size(), ins.tensor_dims));
        if (ops.size() < 4 || ops[3].kind != ptx::OperandKind::kVector || ops[3].elements.size() != ins.tensor_dims - 2u)
          dc.unsupported(fmt::format("an .im2col load without its {} im2col offsets ({{o0, ...}} after the mbarrier)",
                                     ins.tensor_dims - 2u));
      }
      // The operand list at aux2: an .im2col load's offsets, then a .multicast::cluster ctaMask.
      std::vector<std::uint32_t> list;
      if (im2col && !store)
        for (const ptx::Operand& o : ops[3].elements) list.push_back(dc.src(o, ptx::Type::kU16));
      if (ins.multicast && !store) {
        if (ops.size() < used) dc.unsupported(".multicast::cluster without a ctaMask operand");
        list.push_back(dc.src(ops[used - 1], ptx::Type::kU16));
      }
      if (!list.empty()) out.aux2 = dc.add_operand_list(list);
      if (ops.size() > used + (ins.l2_cache_hint ? 1 : 0)) dc.unsupported("extra operands of a tensor copy");
      decode_tensor_operand(dc, map, out);
      const AddrOperand sh = dc.address(ops[store ? 1 : 0], ptx::StateSpace::kShared);
      if (sh.mode != AddrOperand::Mode::kPlain) dc.unsupported("a tensor copy's shared operand");
      out.a = sh.slot;
      out.imm = sh.imm;
      if (sh.reg32) out.flags |= kFlagAddr32;
      out.aux = ins.tensor_dims | (store ? kStore : 0u) | (im2col ? kIm2col : 0u);
      if (!store) {
        if (ins.space != ptx::StateSpace::kSharedCluster && ins.space != ptx::StateSpace::kShared)
          dc.unsupported("a tensor load into a space other than shared memory");
        const AddrOperand b = dc.address(ops[2], ptx::StateSpace::kShared);
        if (b.mode != AddrOperand::Mode::kPlain) dc.unsupported("a tensor copy's mbarrier operand");
        out.c = b.slot;
        out.e = dc.constant(static_cast<std::uint64_t>(b.imm));
        if (b.reg32) out.aux |= kBarAddr32;
        if (ins.space == ptx::StateSpace::kSharedCluster) out.aux |= kClusterDst;
        if (ins.multicast) out.aux |= kMulticast;
      } else if (ins.space != ptx::StateSpace::kGlobal) {
        dc.unsupported("a tensor store into a space other than global memory");
      }
      out.fn = &tensor_copy;
      return true;
    }
    case Opcode::kCpAsyncBulkCommitGroup:
      out.fn = &bulk_commit;
      return true;
    case Opcode::kCpAsyncBulkWaitGroup:
      out.imm = ops.empty() ? 0 : static_cast<std::int64_t>(ops[0].imm);
      out.fn = &bulk_wait;
      return true;
    case Opcode::kCpAsyncBulkPrefetch:
      out.fn = &nop;
      return true;
    case Opcode::kPrefetch:
      if (!ins.tensormap) return false;
      out.fn = &nop;
      return true;
    case Opcode::kCpAsyncBulk: {
      if (!ins.bulk_group) return false;  // the mbarrier form: ops_async.cpp
      if (ins.space != ptx::StateSpace::kGlobal || ins.src_space != ptx::StateSpace::kShared)
        dc.unsupported("cp.async.bulk with .bulk_group other than .global.shared::cta");
      const AddrOperand g = dc.address(ops[0], ptx::StateSpace::kGlobal);
      const AddrOperand s = dc.address(ops[1], ptx::StateSpace::kShared);
      if (g.mode != AddrOperand::Mode::kPlain || s.mode != AddrOperand::Mode::kPlain) dc.unsupported("cp.async.bulk between these operands");
      out.a = g.slot;
      out.imm = g.imm;
      out.b = s.slot;
      out.c = dc.constant(static_cast<std::uint64_t>(s.imm));
      if (s.reg32) out.flags |= kFlagAddr32;
      out.e = dc.src(ops[2], ptx::Type::kU32);
      out.fn = &bulk_store;
      return true;
    }
    case Opcode::kCpReduceAsyncBulk: return decode_reduce(dc, ins, out);
    default: return false;
  }
}

}  // namespace warpscope::exec
