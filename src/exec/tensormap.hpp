// Tensor maps (CUtensorMap, the 128-byte object cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col
// fill and cp.async.bulk.tensor reads) and the shared-memory layout of a TMA box (PTX ISA 9.0
// section 5.5 "Tensors"; CUDA driver API "Tensor Map Object Management"; measured on an H100:
// tests/hw/data/h100/tma).
//
// The object's bytes are opaque to programs: warpscope stores its own encoding in them (EncodedMap
// below, with a magic word), written by the runtime's cuTensorMapEncode* (src/runtime) and read back
// by the interpreter. The encoders check their arguments as the driver documents it and answer
// CUDA_ERROR_INVALID_VALUE (1) with the reason.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::exec::tma {

inline constexpr unsigned kMaxRank = 5;
inline constexpr std::uint32_t kMagic = 0x4d545357u;  // "WSTM"

/// CUtensorMapDataType values (cuda.h) warpscope knows; the sub-byte types of later GPUs are not.
unsigned element_bytes(unsigned data_type);  // 0: unknown
bool is_float_type(unsigned data_type);

enum class Interleave : std::uint8_t { kNone = 0, k16B = 1, k32B = 2 };
enum class Swizzle : std::uint8_t { kNone = 0, k32B = 1, k64B = 2, k128B = 3 };
enum class OobFill : std::uint8_t { kZero = 0, kNanRequestZeroFma = 1 };

/// What warpscope keeps in the 128 bytes of a CUtensorMap.
struct EncodedMap {
  std::uint32_t magic = kMagic;
  std::uint8_t im2col = 0;  // 0: tiled (cuTensorMapEncodeTiled), 1: cuTensorMapEncodeIm2col
  std::uint8_t data_type = 0;
  std::uint8_t rank = 0;
  std::uint8_t interleave = 0;
  std::uint8_t swizzle = 0;
  std::uint8_t l2_promotion = 0;
  std::uint8_t oob_fill = 0;
  std::uint8_t element_strides[kMaxRank] = {};
  std::uint64_t global_address = 0;
  std::uint32_t dims[kMaxRank] = {};
  std::uint16_t box[kMaxRank] = {};          // tiled: boxDim
  std::uint64_t strides[kMaxRank - 1] = {};  // bytes, dimensions 1 .. rank-1
  // im2col: the bounding box corners (dimensions 1 .. rank-2), channels and pixels per request.
  std::int16_t lower[3] = {}, upper[3] = {};
  std::uint16_t channels = 0, pixels = 0;
};
static_assert(sizeof(EncodedMap) <= 128);

/// The encoder's arguments (cuTensorMapEncodeTiled's, in host order).
struct TiledArgs {
  unsigned data_type = 0, rank = 0;
  std::uint64_t global_address = 0;
  const std::uint64_t* dims = nullptr;     // rank values
  const std::uint64_t* strides = nullptr;  // rank - 1 values (bytes)
  const std::uint32_t* box = nullptr;      // rank values
  const std::uint32_t* element_strides = nullptr;
  unsigned interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
};

/// The checks cuTensorMapEncodeTiled documents; an empty string when the arguments are valid.
std::string check_tiled(const TiledArgs& a, const void* map_address);
EncodedMap encode_tiled(const TiledArgs& a);

struct Im2colArgs {
  TiledArgs t;  // box and the element strides unused as boxes: channels/pixels below
  const int* lower = nullptr;
  const int* upper = nullptr;
  unsigned channels = 0, pixels = 0;
};
std::string check_im2col(const Im2colArgs& a, const void* map_address);
EncodedMap encode_im2col(const Im2colArgs& a);

/// The map held in 128 bytes, or nullopt when they hold no warpscope encoding.
std::optional<EncodedMap> decode(const std::uint8_t* bytes128);

/// Bytes of one box row in shared memory: the row's bytes, rounded up to the swizzle span when
/// swizzled (the H100 pads 64-byte rows to 128 under the 128-byte swizzle).
std::uint64_t row_pitch(std::uint64_t row_bytes, Swizzle s);
/// The swizzled shared address of byte `addr` (an absolute shared-memory offset): 16-byte chunk
/// bits [4, 4+k) XOR bits [7, 7+k), k = 1, 2, 3 for 32B, 64B, 128B.
inline std::uint64_t swizzle(std::uint64_t addr, Swizzle s) {
  if (s == Swizzle::kNone) return addr;
  const unsigned k = static_cast<unsigned>(s);  // 1, 2, 3
  const std::uint64_t mask = ((1u << k) - 1u) << 4;
  return addr ^ ((addr >> 3) & mask);
}
/// The elements a box loads along dimension `d` (dimension 0 ignores its element stride on the
/// H100, tests/hw/data/h100/tma case 7).
unsigned box_elements(const EncodedMap& m, unsigned d);
/// The bytes a box moves (its complete-tx count): the product of box_elements times the element
/// size; for an im2col map, pixelsPerColumn x channelsPerPixel x the element size.
std::uint64_t box_bytes(const EncodedMap& m);

/// The pixels one im2col load walks (measured on an H100: tests/hw/data/h100/tma_im2col): from the
/// start coordinates (w, h, d, n), w fastest, each spatial dimension stepping by its element
/// stride through its bounding box [lower, globalDim - 1 + upper] and restarting at the lower
/// corner past its end, carrying into the next and the last into n. Each pixel's coordinates
/// (dimension 0 = the start channel) with the im2col offsets added to the spatial ones.
using Pixel = std::array<std::int64_t, kMaxRank>;
struct Im2colRefusal {
  bool unsupported = false;  // true: not measured (refused); false: the H100 faults (undefined)
  std::string what;
};
/// The request's pixels, or why it cannot run. `start`: rank coordinates; `offsets`: rank - 2.
std::optional<Im2colRefusal> im2col_pixels(const EncodedMap& m, const std::int32_t* start, const std::uint16_t* offsets,
                                           std::vector<Pixel>& out);

/// "2-D FLOAT32 tensor 100x40 at 0x..., box 32x8, 128B swizzle" for messages.
std::string describe(const EncodedMap& m);

}  // namespace warpscope::exec::tma
