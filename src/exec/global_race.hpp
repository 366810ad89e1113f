// `warpscope sanitize --tool racecheck --racecheck-memory all`: hazards on global memory between
// threads of different CTAs of one launch (docs/sanitize.md, "Global memory"). compute-sanitizer
// checks shared memory only; this is warpscope's addition.
//
// The launch's CTAs run on one host thread (launch.cpp), in CTA order, or taking turns in a
// cooperative or cluster launch, so what this checker sees, and reports, is the same every run.
//
// Happens-before between CTAs comes only from synchronising accesses to global memory:
//  - a release: an atom, a red, a cp.reduce.async.bulk, or a strong store (st.volatile,
//    st.relaxed/.release with .gpu or .sys scope) publishes the CTA's accesses made so far to
//    the location it writes;
//  - an acquire: an atom, or a strong load (ld.volatile, ld.relaxed/.acquire at .gpu/.sys),
//    receives what was published to the location it reads.
// An access of CTA b is ordered after an earlier access of CTA a when b acquired, before its
// access, a location that a released to after its access (at the acquire's time: a cooperative
// launch's later phases are told apart). Synchronising accesses themselves never race. Chains
// through a third CTA are not followed, and fences are not required: both make the check lenient
// (a missed hazard, never an invented one). Accesses of one CTA are not compared with each other.
//
// A hazard: a plain write after an unordered write of another CTA that left different bytes
// (WAW: the result depends on which CTA ran last; writes of equal values are not reported), a
// read after an unordered write (RAW), a write after an unordered read (WAR).
//
// Shadow state per 4-byte word of global memory, made when first touched in the launch: the last
// write (its CTA, thread, instruction and the bytes it left) and the last reads of two CTAs,
// each with byte masks. 56 bytes per word touched: the checker stops adding words beyond
// kShadowLimitBytes and says so (GlobalRaceChecker::truncated).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/access.hpp"
#include "exec/program.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {

class GlobalMemory;

class GlobalRaceChecker {
 public:
  static constexpr std::uint64_t kShadowLimitBytes = 2ull << 30;

  GlobalRaceChecker(const KernelImage& k, const GlobalMemory& mem, Dim3 grid, Dim3 block)
      : k_(k), mem_(mem), grid_(grid), block_(block) {}

  /// One record of a CTA's warp; findings go to `log`.
  void on_access(const WarpAccess& a, SanitizerLog& log);
  /// True when words were left unchecked because the shadow reached kShadowLimitBytes.
  bool truncated() const { return truncated_; }

 private:
  struct Side {
    std::uint32_t cta = kNone;
    std::uint32_t epoch = 0;
    std::uint32_t pc = 0;
    std::uint32_t tid = 0;
    static constexpr std::uint32_t kNone = 0xffffffffu;
  };
  struct Word {
    Side write;
    std::array<std::uint8_t, 4> value{};  // the bytes the last write left
    std::uint8_t wmask = 0;
    std::uint8_t rmask[2] = {0, 0};
    Side read[2];  // read[0]: the latest reading CTA; read[1]: the one before it
  };
  static constexpr unsigned kPageWords = 1024;  // 4 KiB of global memory
  using Page = std::array<Word, kPageWords>;
  struct Release {
    std::uint64_t time = 0;   // the checker's clock when it was made
    std::uint32_t epoch = 0;  // the releasing CTA's accesses up to this epoch are published
  };
  struct Location {
    std::uint64_t last_acquire = 0;
    std::unordered_map<std::uint32_t, std::vector<Release>> releases;  // by releasing CTA
  };
  struct CtaState {
    std::uint32_t epoch = 1;
    std::unordered_map<std::uint64_t, std::uint64_t> acquired;  // location -> time of the last acquire
  };

  Word* word(std::uint64_t granule);
  bool ordered(const Side& earlier, std::uint32_t cta);
  void release(std::uint32_t cta, std::uint64_t location);
  void acquire(std::uint32_t cta, std::uint64_t location);
  void hazard(const char* kind, const Side& earlier, bool earlier_write, const Side& later, bool later_write,
              std::uint64_t address, SanitizerLog& log);
  SanitizerSite site(const Side& s, bool write) const;

  const KernelImage& k_;
  const GlobalMemory& mem_;
  Dim3 grid_;
  Dim3 block_;
  std::uint64_t time_ = 1;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
  std::uint64_t cached_page_ = ~std::uint64_t{0};
  Page* cached_ = nullptr;
  std::uint64_t shadow_bytes_ = 0;
  bool truncated_ = false;
  std::unordered_map<std::uint64_t, Location> locations_;
  std::unordered_map<std::uint32_t, CtaState> ctas_;
};

/// The AccessSink a CtaRunner puts in front of its sink while --racecheck-memory all checks.
class GlobalRaceSink final : public AccessSink {
 public:
  GlobalRaceSink(GlobalRaceChecker& checker, SanitizerLog& log) : checker_(checker), log_(log) {}
  void set_inner(AccessSink* inner) { inner_ = inner; }
  void on_access(const WarpAccess& a) override {
    if (inner_ != nullptr) inner_->on_access(a);
    checker_.on_access(a, log_);
  }

 private:
  GlobalRaceChecker& checker_;
  SanitizerLog& log_;
  AccessSink* inner_ = nullptr;
};

}  // namespace warpscope::exec
