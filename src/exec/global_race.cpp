#include "exec/global_race.hpp"

#include <algorithm>
#include <bit>

#include "exec/memory.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

namespace {

enum class Kind : std::uint8_t { kNone, kRead, kWrite, kSync };
struct Effect {
  Kind kind = Kind::kNone;
  bool acquire = false;
  bool release = false;
};

/// A strong access (PTX memory consistency model): volatile, or relaxed/acquire/release/... at a
/// scope wider than the CTA. It synchronises instead of racing.
bool strong(const ptx::Instruction& in) {
  switch (in.order) {
    case ptx::MemOrder::kVolatile:
    case ptx::MemOrder::kRelaxed:
    case ptx::MemOrder::kAcquire:
    case ptx::MemOrder::kRelease:
    case ptx::MemOrder::kAcqRel:
    case ptx::MemOrder::kSc:
      return in.scope != ptx::Scope::kCta;
    default:
      return false;
  }
}

Effect effect_of(const WarpAccess& a, const KernelImage& k) {
  if (a.space != Space::kGlobal) return {};
  switch (a.op) {
    case Op::kAtomic:
      return {Kind::kSync, true, true};
    case Op::kReduction:
    case Op::kBulkRed:
      return {Kind::kSync, false, true};
    case Op::kLoad:
      if (a.pc < k.source.size() && strong(k.ir_instruction(a.pc))) return {Kind::kSync, true, false};
      return {Kind::kRead};
    case Op::kStore:
      if (a.pc < k.source.size() && strong(k.ir_instruction(a.pc))) return {Kind::kSync, false, true};
      return {Kind::kWrite};
    case Op::kLdgsts:
    case Op::kBulkCopy:
      return {Kind::kRead};
    case Op::kBulkStore:
      return {Kind::kWrite};
    case Op::kGmma:
      return {};
  }
  return {};
}

}  // namespace

GlobalRaceChecker::Word* GlobalRaceChecker::word(std::uint64_t granule) {
  const std::uint64_t page = granule / kPageWords;
  if (page != cached_page_) {
    auto it = pages_.find(page);
    if (it == pages_.end()) {
      if (shadow_bytes_ + sizeof(Page) > kShadowLimitBytes) {
        truncated_ = true;
        return nullptr;
      }
      shadow_bytes_ += sizeof(Page);
      it = pages_.emplace(page, std::make_unique<Page>()).first;
    }
    cached_page_ = page;
    cached_ = it->second.get();
  }
  return &(*cached_)[granule % kPageWords];
}

bool GlobalRaceChecker::ordered(const Side& e, std::uint32_t cta) {
  const auto state = ctas_.find(cta);
  if (state == ctas_.end()) return false;
  for (const auto& [location, when] : state->second.acquired) {
    const auto loc = locations_.find(location);
    if (loc == locations_.end()) continue;
    const auto rel = loc->second.releases.find(e.cta);
    if (rel == loc->second.releases.end()) continue;
    // The latest release of e's CTA to this location made before the acquire.
    const std::vector<Release>& v = rel->second;
    auto it = std::upper_bound(v.begin(), v.end(), when, [](std::uint64_t t, const Release& r) { return t < r.time; });
    if (it != v.begin() && std::prev(it)->epoch >= e.epoch) return true;
  }
  return false;
}

void GlobalRaceChecker::release(std::uint32_t cta, std::uint64_t location) {
  CtaState& s = ctas_[cta];
  Location& loc = locations_[location];
  std::vector<Release>& v = loc.releases[cta];
  const Release r{time_++, s.epoch};
  // Releases nobody acquired in between are one: only the latest can be seen.
  if (!v.empty() && v.back().time > loc.last_acquire) {
    v.back() = r;
  } else {
    v.push_back(r);
  }
  ++s.epoch;
}

void GlobalRaceChecker::acquire(std::uint32_t cta, std::uint64_t location) {
  const std::uint64_t now = time_++;
  ctas_[cta].acquired[location] = now;
  locations_[location].last_acquire = now;
}

SanitizerSite GlobalRaceChecker::site(const Side& s, bool write) const {
  SanitizerSite out = sanitizer_site(k_, s.pc, s.tid, block_);
  out.access = write ? "Write" : "Read";
  return out;
}

void GlobalRaceChecker::hazard(const char* kind, const Side& earlier, bool earlier_write, const Side& later,
                               bool later_write, std::uint64_t address, SanitizerLog& log) {
  auto block_of = [&](std::uint32_t cta) {
    return Dim3{cta % grid_.x, (cta / grid_.x) % grid_.y, cta / (grid_.x * grid_.y)};
  };
  SanitizerFinding f;
  f.tool = "racecheck";
  f.kind = kind;
  f.space = "global";
  f.kernel = k_.name;
  f.block = block_of(later.cta);
  f.first_block = block_of(earlier.cta);
  f.address = address;
  f.first = site(earlier, earlier_write);
  f.second = site(later, later_write);
  log.note(f, later.cta);
}

void GlobalRaceChecker::on_access(const WarpAccess& a, SanitizerLog& log) {
  const Effect fx = effect_of(a, k_);
  if (fx.kind == Kind::kNone) return;
  const std::uint32_t cta = a.cta;
  const std::uint32_t bits = static_cast<std::uint32_t>(a.active.bits());
  if (fx.kind == Kind::kSync) {
    // One location per lane's first word: an atomic's or a flag's address.
    for (std::uint32_t b = bits; b != 0; b &= b - 1) {
      const std::uint64_t location = a.addr[std::countr_zero(b)] >> 2;
      if (fx.acquire) acquire(cta, location);
      if (fx.release) release(cta, location);
    }
    return;
  }
  const bool write = fx.kind == Kind::kWrite;
  const std::uint32_t epoch = ctas_[cta].epoch;
  // One finding per kind and word of this record is enough: it names both sides.
  for (std::uint32_t b = bits; b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    const Side me{cta, epoch, a.pc, a.warp * kLanes + lane};
    const std::uint64_t first = a.addr[lane];
    const std::uint64_t end = first + a.width;
    const Region* region = mem_.find(first, a.width);
    for (std::uint64_t g = first >> 2; g <= (end - 1) >> 2; ++g) {
      std::uint8_t mask = 0;
      for (unsigned i = 0; i < 4; ++i) {
        const std::uint64_t byte = g * 4 + i;
        if (byte >= first && byte < end) mask = static_cast<std::uint8_t>(mask | (1u << i));
      }
      Word* w = word(g);
      if (w == nullptr) return;
      auto byte_now = [&](unsigned i) -> int {
        const std::uint64_t addr = g * 4 + i;
        if (region == nullptr || !region->contains(addr, 1)) return -1;
        return region->host[addr - region->base];
      };
      const std::uint64_t address = std::max(first, g * 4);
      const bool other_write = w->write.cta != Side::kNone && w->write.cta != cta && (w->wmask & mask) != 0;
      if (other_write && !ordered(w->write, cta)) {
        if (!write) {
          hazard("RAW", w->write, true, me, false, address, log);
        } else {
          // Equal bytes: whichever CTA the GPU runs last, memory ends the same.
          bool differ = false;
          for (unsigned i = 0; i < 4; ++i) {
            if (!(w->wmask & mask & (1u << i))) continue;
            const int now = byte_now(i);
            differ = differ || now < 0 || now != w->value[i];
          }
          if (differ) hazard("WAW", w->write, true, me, true, address, log);
        }
      }
      if (write) {
        for (unsigned r = 0; r < 2; ++r) {
          const Side& rd = w->read[r];
          if (rd.cta != Side::kNone && rd.cta != cta && (w->rmask[r] & mask) != 0 && !ordered(rd, cta)) {
            hazard("WAR", rd, false, me, true, address, log);
          }
        }
        w->wmask = static_cast<std::uint8_t>(w->write.cta == cta ? (w->wmask | mask) : mask);
        w->write = me;
        for (unsigned i = 0; i < 4; ++i) {
          if (!(mask & (1u << i))) continue;
          const int now = byte_now(i);
          w->value[i] = static_cast<std::uint8_t>(now < 0 ? 0 : now);
        }
        w->rmask[0] = static_cast<std::uint8_t>(w->rmask[0] & ~mask);
        w->rmask[1] = static_cast<std::uint8_t>(w->rmask[1] & ~mask);
      } else if (w->read[0].cta == cta) {
        w->read[0] = me;
        w->rmask[0] = static_cast<std::uint8_t>(w->rmask[0] | mask);
      } else {
        w->read[1] = w->read[0];
        w->rmask[1] = w->rmask[0];
        w->read[0] = me;
        w->rmask[0] = mask;
      }
    }
  }
}

}  // namespace warpscope::exec
