// initcheck's shared-memory check (--initcheck-memory all, initcheck.hpp): reads of bytes of a
// CTA's shared memory that no thread of the CTA (or a cluster peer, through distributed shared
// memory) wrote before, in the interpreter's schedule of the CTA. The schedule of a CTA (and of a
// cluster's CTAs, which take turns) is fixed, so the reports are the same for any host threads.
#include <algorithm>
#include <bit>

#include "exec/initcheck.hpp"
#include "exec/memory.hpp"

namespace warpscope::exec {

namespace {
constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kClusterRankShift) - 1;

/// Whether every byte of [off, off + n) is set.
bool all_set(const std::vector<std::uint64_t>& bits, std::uint64_t off, unsigned n) {
  for (std::uint64_t b = off; b < off + n; ++b)
    if (!(bits[b >> 6] >> (b & 63) & 1)) return false;
  return true;
}

void set_range(std::vector<std::uint64_t>& bits, std::uint64_t off, std::uint64_t n) {
  for (std::uint64_t b = off; b < off + n; ++b) bits[b >> 6] |= std::uint64_t{1} << (b & 63);
}
}  // namespace

void InitChecker::begin_shared() {
  // CTAs that run one after another reuse one buffer: one entry, cleared for each CTA.
  if (per_cta_ && (shared_bits_.size() != 1 || shared_bits_.begin()->first != x_.shared)) shared_bits_.clear();
  shared_bits_[x_.shared].assign((x_.shared_size + 63) / 64, 0);
  last_base_ = nullptr;
  last_bits_ = nullptr;
}

std::vector<std::uint64_t>* InitChecker::shared_bits(const std::uint8_t* base) {
  if (base == nullptr) return nullptr;
  if (base == last_base_) return last_bits_;
  const auto it = shared_bits_.find(base);
  if (it == shared_bits_.end()) return nullptr;  // a peer that has not started (or has exited)
  last_base_ = base;
  last_bits_ = &it->second;
  return last_bits_;
}

void InitChecker::shared_bulk_destination() {
  // cp.async.bulk(.tensor) into shared memory: the copy's shared destination (this CTA's, or with
  // a shared::cluster destination or multicast, its peers') is not in the access records, so
  // every byte of the cluster's shared memory counts as written from here on: no report that
  // could be false, at the price of the reads after it going unchecked (docs/sanitize.md).
  const auto fill = [&](const std::uint8_t* base) {
    if (std::vector<std::uint64_t>* v = shared_bits(base)) std::fill(v->begin(), v->end(), ~std::uint64_t{0});
  };
  fill(x_.shared);
  if (x_.cluster_shared != nullptr)
    for (std::uint32_t r = 0; r < x_.cluster_ctas; ++r) fill(x_.cluster_shared[r]);
}

void InitChecker::on_shared(const WarpAccess& a) {
  bool read = false, write = false;
  switch (a.op) {
    case Op::kLoad:  // ld.shared, generic loads of shared memory, ldmatrix
    case Op::kGmma: read = true; break;  // wgmma's operands
    // Atomics and reductions read the old value first, as initcheck treats them in global memory.
    case Op::kAtomic:
    case Op::kReduction: read = write = true; break;
    case Op::kStore:    // st.shared, stmatrix, distributed-shared-memory stores
    case Op::kLdgsts:   // cp.async's destinations (zeros fill what src-size leaves out)
    case Op::kBulkCopy: // a bulk copy or reduction into a peer's shared memory (kDsmem)
    case Op::kBulkRed: write = true; break;
    default: return;
  }
  const unsigned width = a.width;
  const std::uint64_t size = x_.shared_size;
  for (auto b = static_cast<std::uint32_t>(a.active.bits()); b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    std::uint64_t off = a.addr[lane];
    const std::uint8_t* base = x_.shared;
    if (a.space == Space::kDsmem) {
      const std::uint64_t tag = off >> kClusterRankShift;
      off &= kOffsetMask;
      if (tag == 0) {
        // A bulk copy's destination records carry the offset, not the peer: every peer's bytes
        // there count as written (no false report; a read there goes unchecked).
        if (!write || x_.cluster_shared == nullptr) continue;
        for (std::uint32_t r = 0; r < x_.cluster_ctas; ++r) {
          std::vector<std::uint64_t>* v = shared_bits(x_.cluster_shared[r]);
          if (v != nullptr && off <= size && size - off >= width) set_range(*v, off, width);
        }
        continue;
      }
      if (x_.cluster_shared == nullptr || tag - 1 >= x_.cluster_ctas) continue;
      base = x_.cluster_shared[tag - 1];
    }
    std::vector<std::uint64_t>* v = shared_bits(base);
    if (v == nullptr || off > size || size - off < width) continue;  // outside: memcheck's
    if (read && !all_set(*v, off, width)) report(a, lane, a.addr[lane], true);
    if (write) set_range(*v, off, width);
  }
}

}  // namespace warpscope::exec
