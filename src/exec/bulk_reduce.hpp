// The element operation of cp.reduce.async.bulk(.tensor) (PTX ISA 9.0, sections 9.7.9.25.4.2 and
// 9.7.9.27.2): each destination element becomes `dst op src`, element by element, each element an
// atomic read-modify-write. The floating-point rules are the ones the H100 showed on every
// pairing of normal, subnormal, zero, infinite and NaN operands (tests/hw/data/h100/tma_more):
//   - add.f32: round to nearest even, subnormals kept (no flush), every NaN result 0x7fffffff;
//     with a FLOAT32_FTZ tensor map, subnormal inputs and results flush to sign-preserving zero;
//   - add.f64: round to nearest even; a NaN operand is returned unchanged (signalling NaNs too),
//     the source's when both are NaN; inf + -inf gives 0xfff8000000000000;
//   - add.noftz.f16 / .bf16: round to nearest even, subnormals kept, NaN results 0x7fff;
//   - min/max.f16 / .bf16: a NaN operand yields the other one, two NaNs 0x7fff, -0 < +0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ptx/ir.hpp"

namespace warpscope::exec::bulkred {

/// The element types of a reduction (the instruction's .type, or a tensor map's data type).
enum class Elem : std::uint8_t { kB32, kU32, kS32, kB64, kU64, kS64, kF16, kBF16, kF32, kF32Ftz, kF64 };

unsigned element_bytes(Elem e);
std::string_view name(Elem e);

/// The element type of a bulk reduction's .type (nullopt: none of the ISA's).
std::optional<Elem> from_ptx(ptx::Type t);
/// The element type of a tensor map's data type as the TMA reduces it (nullopt: a type whose
/// reductions are not modelled: 8/16-bit integers, TFLOAT32_FTZ); TFLOAT32 reduces as f32.
std::optional<Elem> from_tensor_map(unsigned data_type);

/// Whether (op, type) is one of the combinations the PTX ISA lists for cp.reduce.async.bulk
/// into global memory (and the H100 ran, for the tensor form: f32 max stops it).
bool valid(ptx::ReduceOp op, Elem e);

/// Reduces the `n` bytes at `src` into `dst` (n a multiple of the element size). `atomic`:
/// other host threads may touch `dst` (global memory of a multi-threaded run), so each element
/// is updated with a compare-and-swap.
void reduce(ptx::ReduceOp op, Elem e, std::uint8_t* dst, const std::uint8_t* src, std::size_t n, bool atomic);

}  // namespace warpscope::exec::bulkred
