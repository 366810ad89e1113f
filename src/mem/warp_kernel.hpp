// Internal to the coalescer: the kernel that turns one whole-warp request into transactions.
//
// Contract: warp_request(addr, active, params, t, requested), params = kernel_params(shift,
// width, request), groups the active lanes' addresses (addr[0..32); only lanes in `active` are
// read) by aligned blocks of 2^shift bytes (5 <= shift <= 15; width 1, 2, 4, 8 or 16) and writes
// one Transaction per distinct block to t[0..n) (addr = block start, bytes = 2^shift, request,
// lanes served), in the order of the lowest lane each block serves, and returns n (0 without an
// active lane). It adds the distinct bytes the active lanes touch (width-byte words, naturally
// aligned) to *requested. It returns -1 when an active lane's address is not a multiple of
// `width` (the caller reports the error). t must have room for 32 transactions; slots of t past
// the n written may be overwritten. No allocation.
//
// The kernel is compiled twice from warp_kernel.inl: a portable version (coalescer.cpp) and an
// AVX2/BMI2/POPCNT version (warp_kernel_avx2.cpp, x86-64 only) that the coalescer uses when the
// CPU has those instructions. Both give identical results (tests/mem/coalescer_test.cpp).
#pragma once

#include <cstdint>

#include "mem/coalescer.hpp"

namespace warpscope::mem {

constexpr std::uint32_t kernel_params(unsigned shift, std::uint32_t width, std::uint32_t request) {
  return shift | (width << 8) | (request << 16);
}

// global_request(access, out, path): a whole global access on the sector family (one request;
// width already known to be 1, 2, 4, 8 or 16): the same transactions as warp_request with
// path.shift and request 0, written to out.transactions, and every other field of `out` filled
// in. Returns the number of transactions, or -1 when an active lane is misaligned (the caller
// reports the error; `out` is then unspecified).

namespace portable {
int warp_request(const std::uint64_t* addr, std::uint32_t active, std::uint32_t params, Transaction* t,
                 std::uint64_t* requested);
int global_request(const WarpAccess& access, CoalesceResult& out, const Coalescer::GlobalPath& path);
}  // namespace portable

/// Only built where WARPSCOPE_MEM_AVX2 is defined (x86-64 GCC/Clang); call only when the CPU has
/// AVX2, BMI2 and POPCNT (Coalescer checks).
namespace avx2 {
int warp_request(const std::uint64_t* addr, std::uint32_t active, std::uint32_t params, Transaction* t,
                 std::uint64_t* requested);
int global_request(const WarpAccess& access, CoalesceResult& out, const Coalescer::GlobalPath& path);
}  // namespace avx2

}  // namespace warpscope::mem
