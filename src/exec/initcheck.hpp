// `warpscope sanitize --tool initcheck` (docs/sanitize.md): reads of global memory that no copy,
// memset or kernel has written.
//
// InitShadow holds one bit per byte of the device heap's address range (GlobalMemory mirrors it
// in one host reservation; the shadow is a second one, 1/8 of its size, whose pages exist once
// touched): set = "allocated by cudaMalloc and not written since". Device::malloc sets the bits of
// the new allocation; copies to the device, device-to-device copies, memsets and the writes of
// finished launches clear them; Device::free clears them too (the range stops being tracked).
// Module variables, the device heap, host memory and managed memory are never set, so they read
// as initialised (managed memory is copied in before every launch: docs/runtime.md).
//
// Inside a launch the rule is deterministic, whatever the host threads (issue 31): a read of a
// byte is uninitialised when its bit was set when the launch started and no earlier write of the
// reading thread's own CTA (in the interpreter's schedule, which is fixed) covered it, and no
// other CTA of the launch writes it at any time (InitShadow::drop_reads_written_by_others, when
// the launch ends: on a GPU the write may come first, and the H200 reports no such read).
//
// InitChecker is the CTA runner's AccessSink while initcheck is on (like RaceChecker): it checks
// global loads (ld, cp.async's global side, bulk and tensor copies' reads) and notes global
// writes (st, atomics, reductions, bulk and tensor stores) in a set per CTA, which it hands to
// the shadow when the CTA is done; the shadow applies them all when the launch ends (commit()).
// Atomics and reductions are checked as reads, then count as writes (as the H200 reports them).
//
// --initcheck-memory all (SanitizeChecks::initcheck_shared, warpscope's addition: compute-sanitizer
// checks global memory only) also checks shared memory (initcheck_shared.cpp): one bit per byte of
// each CTA's shared memory (static and dynamic), all clear when the CTA starts, set by the CTA's
// writes (st.shared, atomics, stmatrix, cp.async's destinations) and by its cluster peers'
// distributed-shared-memory writes into it; a read (ld, atomics, ldmatrix, wgmma operands) of a
// byte not set, in the interpreter's schedule of the CTA (fixed), is reported once per thread access.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/access.hpp"
#include "exec/program.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {

class InitShadow {
 public:
  /// A shadow for device addresses [base, base + span).
  InitShadow(std::uint64_t base, std::uint64_t span);
  ~InitShadow();
  InitShadow(const InitShadow&) = delete;
  InitShadow& operator=(const InitShadow&) = delete;

  /// [addr, addr + n) is a fresh allocation: every byte uninitialised.
  void poison(std::uint64_t addr, std::uint64_t n) { set(addr, n, true); }
  /// [addr, addr + n) was written (or stops being tracked).
  void unpoison(std::uint64_t addr, std::uint64_t n) { set(addr, n, false); }
  /// Whether any byte of [addr, addr + n) is uninitialised; `bits` gets one bit per byte (n <= 64).
  bool poisoned(std::uint64_t addr, unsigned n, std::uint64_t& bits) const;
  /// The runs of uninitialised bytes in [addr, addr + n): (offset from addr, length)
  /// (`--track-unused-memory`).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs(std::uint64_t addr, std::uint64_t n) const;

  /// A CTA's writes: 64-byte chunk address, one bit per byte, the CTA; applied at commit().
  struct Chunk {
    std::uint64_t chunk = 0;
    std::uint64_t mask = 0;
    std::uint32_t cta = 0;
  };
  void hand_in(std::vector<Chunk>& writes);
  /// Before commit(): drops the uninitialised-read findings of `stats.sanitizer` whose bytes that were
  /// unwritten when the launch started are all written, during the launch, by CTAs other than
  /// the reader's (a grid of `grid`): on a GPU such a read may follow the write, as H200's
  /// compute-sanitizer shows (tests/hw/data/h200/sanitize/initcheck.txt, mode `other`).
  /// Returns how many it dropped.
  /// Also the reads past the kept ones (stats.sanitizer_unkept_reads), whose count
  /// (stats.sanitizer_unkept) it lowers by those it drops.
  std::size_t drop_reads_written_by_others(LaunchStats& stats, Dim3 grid);
  /// The launch ended: its writes clear their bits.
  void commit();

 private:
  void set(std::uint64_t addr, std::uint64_t n, bool value);
  std::uint64_t base_ = 0, span_ = 0;
  std::uint8_t* bits_ = nullptr;  // one bit per byte of [base_, base_ + span_)
  std::mutex mu_;
  std::vector<Chunk> pending_;
};

class InitChecker : public AccessSink {
 public:
  /// Reports kept per launch (per runner, then merged): the lowest CTAs' first ones.
  static constexpr std::size_t kKeep = 1000;

  /// `shared`: --initcheck-memory all, shared memory is checked too.
  InitChecker(const KernelImage& k, const Ctx& x, InitShadow& shadow, SanitizerLog& log, bool per_cta, bool shared)
      : k_(k), x_(x), shadow_(shadow), log_(log), per_cta_(per_cta), shared_(shared) {}
  ~InitChecker() override;
  InitChecker(const InitChecker&) = delete;
  InitChecker& operator=(const InitChecker&) = delete;

  void set_inner(AccessSink* inner) { inner_ = inner; }
  /// A new CTA starts (launches whose CTAs run one after another: the last one's writes go).
  void begin_cta();
  void on_access(const WarpAccess& a) override;

 private:
  struct Slot {
    std::uint64_t chunk = 0;  // address / 64
    std::uint32_t cta = 0;
    bool used = false;
    std::uint64_t mask = 0;   // bytes written
  };
  Slot* find(std::uint64_t chunk, std::uint32_t cta, bool insert);
  void grow();
  void flush();
  /// Bits of [addr, addr + n) (n <= 64, within one or two chunks) the CTA wrote.
  std::uint64_t written(std::uint64_t addr, unsigned n, std::uint32_t cta);
  void note_write(std::uint64_t addr, std::uint64_t bits, unsigned n, std::uint32_t cta);
  void report(const WarpAccess& a, unsigned lane, std::uint64_t addr, bool shared);
  // Shared memory (initcheck_shared.cpp).
  void begin_shared();
  std::vector<std::uint64_t>* shared_bits(const std::uint8_t* base);
  void on_shared(const WarpAccess& a);
  void shared_bulk_destination();

  const KernelImage& k_;
  const Ctx& x_;
  InitShadow& shadow_;
  SanitizerLog& log_;
  bool per_cta_;  // CTAs run one after another (else: cooperative, clusters: keyed by CTA)
  std::uint32_t current_cta_ = 0;  // per_cta_: the CTA whose writes the table holds
  AccessSink* inner_ = nullptr;
  std::vector<Slot> table_;  // open addressing, a power of two
  std::vector<std::uint32_t> used_;
  std::vector<InitShadow::Chunk> done_;  // writes of the CTAs this runner finished
  bool shared_;  // --initcheck-memory all
  // One bit per byte of a CTA's shared memory, set: written; keyed by the CTA's shared-memory
  // buffer (CTAs that take turns each have one; a cluster peer's is Ctx::cluster_shared[rank]).
  std::unordered_map<const std::uint8_t*, std::vector<std::uint64_t>> shared_bits_;
  const std::uint8_t* last_base_ = nullptr;
  std::vector<std::uint64_t>* last_bits_ = nullptr;
};

}  // namespace warpscope::exec
