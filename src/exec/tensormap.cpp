// Tensor map encoding, the driver's argument checks and the TMA box layout (tensormap.hpp).
#include "exec/tensormap.hpp"

#include <cstring>

#include <fmt/format.h>

namespace warpscope::exec::tma {
namespace {

const char* type_name(unsigned t) {
  static const char* const kNames[] = {"UINT8",   "UINT16",   "UINT32",  "INT32",       "UINT64",  "INT64",       "FLOAT16",
                                       "FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"};
  return t < sizeof kNames / sizeof kNames[0] ? kNames[t] : "?";
}

unsigned span(Swizzle s) { return s == Swizzle::kNone ? 0u : 16u << static_cast<unsigned>(s); }

/// The checks shared by both encoders (CUDA driver API, cuTensorMapEncodeTiled/Im2col).
std::string check_common(const TiledArgs& a, const void* map_address, unsigned min_rank) {
  if (map_address == nullptr) return "tensorMap is NULL";
  if (reinterpret_cast<std::uintptr_t>(map_address) % 64 != 0) return "tensorMap is not 64-byte aligned";
  const unsigned es = element_bytes(a.data_type);
  if (es == 0) return fmt::format("tensorDataType {} is not a data type warpscope knows", a.data_type);
  if (a.interleave > 2) return fmt::format("interleave {} is not a CUtensorMapInterleave value", a.interleave);
  if (a.swizzle > 3) return fmt::format("swizzle {} is not a CUtensorMapSwizzle value", a.swizzle);
  if (a.l2_promotion > 3) return fmt::format("l2Promotion {} is not a CUtensorMapL2promotion value", a.l2_promotion);
  if (a.oob_fill > 1) return fmt::format("oobFill {} is not a CUtensorMapFloatOOBfill value", a.oob_fill);
  const unsigned lo = a.interleave != 0 ? 3u : min_rank;
  if (a.rank < lo || a.rank > kMaxRank)
    return fmt::format("tensorRank {} (1 to 5; 3 to 5 with interleave; im2col: 3 to 5)", a.rank);
  const unsigned align = a.interleave == 2 ? 32u : 16u;
  if (a.global_address % align != 0) return fmt::format("globalAddress 0x{:x} is not {}-byte aligned", a.global_address, align);
  if (a.dims == nullptr || (a.rank > 1 && a.strides == nullptr) || a.element_strides == nullptr)
    return "globalDim, globalStrides or elementStrides is NULL";
  for (unsigned i = 0; i < a.rank; ++i) {
    if (a.dims[i] == 0 || a.dims[i] > (1ull << 32)) return fmt::format("globalDim[{}] = {} (1 to 2^32)", i, a.dims[i]);
    if (a.element_strides[i] == 0 || a.element_strides[i] > 8)
      return fmt::format("elementStrides[{}] = {} (1 to 8)", i, a.element_strides[i]);
  }
  for (unsigned i = 0; i + 1 < a.rank; ++i) {
    if (a.strides[i] % align != 0 || a.strides[i] >= (1ull << 40))
      return fmt::format("globalStrides[{}] = {} (a multiple of {} below 2^40)", i, a.strides[i], align);
  }
  if (a.oob_fill == 1 && !is_float_type(a.data_type))
    return fmt::format("oobFill NAN_REQUEST_ZERO_FMA with the integer type {}", type_name(a.data_type));
  return {};
}

void fill_common(const TiledArgs& a, EncodedMap& m) {
  m.data_type = static_cast<std::uint8_t>(a.data_type);
  m.rank = static_cast<std::uint8_t>(a.rank);
  m.interleave = static_cast<std::uint8_t>(a.interleave);
  m.swizzle = static_cast<std::uint8_t>(a.swizzle);
  m.l2_promotion = static_cast<std::uint8_t>(a.l2_promotion);
  m.oob_fill = static_cast<std::uint8_t>(a.oob_fill);
  m.global_address = a.global_address;
  for (unsigned i = 0; i < a.rank; ++i) {
    m.dims[i] = static_cast<std::uint32_t>(a.dims[i] - 1);  // 2^32 fits as dim - 1
    m.element_strides[i] = static_cast<std::uint8_t>(a.element_strides[i]);
  }
  for (unsigned i = 0; i + 1 < a.rank; ++i) m.strides[i] = a.strides[i];
}

}  // namespace

unsigned element_bytes(unsigned t) {
  switch (t) {
    case 0: return 1;                                   // UINT8
    case 1: case 6: case 9: return 2;                   // UINT16, FLOAT16, BFLOAT16
    case 2: case 3: case 7: case 10: case 11: case 12: return 4;  // (U)INT32, FLOAT32(_FTZ), TFLOAT32(_FTZ)
    case 4: case 5: case 8: return 8;                   // (U)INT64, FLOAT64
    default: return 0;
  }
}

bool is_float_type(unsigned t) { return t >= 6 && t <= 12; }

std::string check_tiled(const TiledArgs& a, const void* map_address) {
  std::string e = check_common(a, map_address, 1);
  if (!e.empty()) return e;
  if (a.box == nullptr) return "boxDim is NULL";
  const unsigned es = element_bytes(a.data_type);
  for (unsigned i = 0; i < a.rank; ++i)
    if (a.box[i] == 0 || a.box[i] > 256) return fmt::format("boxDim[{}] = {} (1 to 256)", i, a.box[i]);
  const std::uint64_t inner = std::uint64_t{a.box[0]} * es;
  if (a.interleave == 0 && inner % 16 != 0)
    return fmt::format("boxDim[0] * elementSize = {} bytes, not a multiple of 16", inner);
  const unsigned sp = span(static_cast<Swizzle>(a.swizzle));
  if (a.interleave == 0 && sp != 0 && inner > sp)
    return fmt::format("boxDim[0] * elementSize = {} bytes exceeds the {}-byte swizzle span", inner, sp);
  return {};
}

EncodedMap encode_tiled(const TiledArgs& a) {
  EncodedMap m;
  fill_common(a, m);
  for (unsigned i = 0; i < a.rank; ++i) m.box[i] = static_cast<std::uint16_t>(a.box[i]);
  return m;
}

std::string check_im2col(const Im2colArgs& a, const void* map_address) {
  std::string e = check_common(a.t, map_address, 3);
  if (!e.empty()) return e;
  if (a.lower == nullptr || a.upper == nullptr) return "pixelBoxLowerCorner or pixelBoxUpperCorner is NULL";
  // The documented corner ranges are 16, 8 and 4 bits (signed) for 3-, 4- and 5-D tensors; the
  // H100's driver 580 enforces 16 and 8 bits and accepted -9 and 8 for a 5-D tensor
  // (tests/hw/data/h100/tma_im2col/checks.txt): 5-D is held to 8 bits here and loads refuse
  // corners outside the documented 4 bits (ops_tma.cpp).
  const int lim = a.t.rank == 3 ? 1 << 15 : 1 << 7;
  for (unsigned i = 0; i + 2 < a.t.rank; ++i) {
    if (a.lower[i] < -lim || a.lower[i] >= lim || a.upper[i] < -lim || a.upper[i] >= lim)
      return fmt::format("pixelBoxLowerCorner[{}] = {} or pixelBoxUpperCorner[{}] = {} out of [{}, {}] for a {}-D tensor", i,
                         a.lower[i], i, a.upper[i], -lim, lim - 1, a.t.rank);
    // The bounding box of dimension i+1 is [lower, globalDim - 1 + upper]; the driver refuses an
    // empty one (checks.txt: lower 3 / upper -3 on a dimension of 5, lower 127).
    const std::int64_t hi = static_cast<std::int64_t>(a.t.dims[i + 1]) - 1 + a.upper[i];
    if (a.lower[i] > hi)
      return fmt::format("the pixel bounding box of dimension {} is empty (lower corner {} above globalDim - 1 + upper "
                         "corner = {})", i + 1, a.lower[i], hi);
  }
  if (a.channels == 0 || a.channels > 256) return fmt::format("channelsPerPixel = {} (1 to 256)", a.channels);
  if (a.pixels == 0 || a.pixels > 1024) return fmt::format("pixelsPerColumn = {} (1 to 1024)", a.pixels);
  const std::uint64_t inner = std::uint64_t{a.channels} * element_bytes(a.t.data_type);
  if (a.t.interleave == 0 && inner % 16 != 0)
    return fmt::format("channelsPerPixel * elementSize = {} bytes, not a multiple of 16", inner);
  const unsigned sp = span(static_cast<Swizzle>(a.t.swizzle));
  if (a.t.interleave == 0 && sp != 0 && inner > sp)
    return fmt::format("channelsPerPixel * elementSize = {} bytes exceeds the {}-byte swizzle span", inner, sp);
  return {};
}

EncodedMap encode_im2col(const Im2colArgs& a) {
  EncodedMap m;
  fill_common(a.t, m);
  m.im2col = 1;
  for (unsigned i = 0; i + 2 < a.t.rank; ++i) {
    m.lower[i] = static_cast<std::int16_t>(a.lower[i]);
    m.upper[i] = static_cast<std::int16_t>(a.upper[i]);
  }
  m.channels = static_cast<std::uint16_t>(a.channels);
  m.pixels = static_cast<std::uint16_t>(a.pixels);
  return m;
}

std::optional<EncodedMap> decode(const std::uint8_t* bytes128) {
  EncodedMap m;
  std::memcpy(&m, bytes128, sizeof m);
  if (m.magic != kMagic || m.rank == 0 || m.rank > kMaxRank || element_bytes(m.data_type) == 0) return std::nullopt;
  return m;
}

std::uint64_t row_pitch(std::uint64_t row_bytes, Swizzle s) {
  const unsigned sp = span(s);
  return sp == 0 ? row_bytes : (row_bytes + sp - 1) / sp * sp;
}

unsigned box_elements(const EncodedMap& m, unsigned d) {
  if (d == 0) return m.box[0];
  return (m.box[d] + m.element_strides[d] - 1u) / m.element_strides[d];
}

std::uint64_t box_bytes(const EncodedMap& m) {
  std::uint64_t n = element_bytes(m.data_type);
  if (m.im2col) return n * m.channels * m.pixels;
  for (unsigned d = 0; d < m.rank; ++d) n *= box_elements(m, d);
  return n;
}

std::optional<Im2colRefusal> im2col_pixels(const EncodedMap& m, const std::int32_t* start, const std::uint16_t* offsets,
                                           std::vector<Pixel>& out) {
  out.clear();
  const unsigned r = m.rank, last = r - 1;
  auto refuse = [](bool unsupported, std::string what) { return Im2colRefusal{unsupported, std::move(what)}; };
  if (m.element_strides[0] != 1 || m.element_strides[last] != 1)
    return refuse(true, fmt::format("an im2col copy with elementStrides[0] = {} or elementStrides[{}] = {} (not measured on the H100)",
                                    m.element_strides[0], last, m.element_strides[last]));
  if (start[last] < 0 || std::int64_t{start[last]} > std::int64_t{m.dims[last]})
    return refuse(true, fmt::format("an im2col copy starting at n = {} outside the tensor's {} images (not measured on the H100)",
                                    start[last], std::int64_t{m.dims[last]} + 1));
  std::int64_t lo[kMaxRank] = {}, hi[kMaxRank] = {};
  for (unsigned d = 1; d < last; ++d) {
    lo[d] = m.lower[d - 1];
    hi[d] = std::int64_t{m.dims[d]} + m.upper[d - 1];  // dims holds globalDim - 1
    if (r == 5 && (m.lower[d - 1] < -8 || m.lower[d - 1] > 7 || m.upper[d - 1] < -8 || m.upper[d - 1] > 7))
      return refuse(true, fmt::format("a 5-D im2col map whose pixel box corner {} / {} lies outside the documented range "
                                      "[-8, 7] (the H100's driver accepts it; loads with it were not measured)",
                                      m.lower[d - 1], m.upper[d - 1]));
    if (offsets[d - 1] >= 0x8000)
      return refuse(true, fmt::format("an im2col offset of {} (0x{:x}; offsets of 2^15 and above were not measured on the H100)",
                                      offsets[d - 1], offsets[d - 1]));
    if (start[d] > hi[d])
      return refuse(false, fmt::format("an im2col copy starting at coordinate {} = {} past its bounding box [{}, {}]: the "
                                       "H100 stops with an illegal instruction", d, start[d], lo[d], hi[d]));
    if (start[d] < lo[d])
      return refuse(true, fmt::format("an im2col copy starting at coordinate {} = {} before its bounding box [{}, {}] (not "
                                      "measured on the H100)", d, start[d], lo[d], hi[d]));
    if ((start[d] - lo[d]) % m.element_strides[d] != 0)
      return refuse(true, fmt::format("an im2col copy starting at coordinate {} = {}, off the element-stride grid {} + k * {} "
                                      "(not measured on the H100)", d, start[d], lo[d], m.element_strides[d]));
  }
  std::int64_t cur[kMaxRank] = {};
  for (unsigned d = 0; d < r; ++d) cur[d] = start[d];
  out.reserve(m.pixels);
  for (unsigned p = 0; p < m.pixels; ++p) {
    Pixel px{};
    for (unsigned d = 0; d < r; ++d) px[d] = cur[d] + (d >= 1 && d < last ? offsets[d - 1] : 0);
    out.push_back(px);
    unsigned d = 1;
    for (; d < last; ++d) {
      cur[d] += m.element_strides[d];
      if (cur[d] <= hi[d]) break;
      cur[d] = lo[d];
    }
    if (d == last) ++cur[last];
  }
  return std::nullopt;
}

std::string describe(const EncodedMap& m) {
  std::string dims, box;
  for (unsigned d = 0; d < m.rank; ++d) dims += fmt::format("{}{}", d ? "x" : "", std::uint64_t{m.dims[d]} + 1);
  if (m.im2col) {
    std::string corners;
    for (unsigned d = 0; d + 2 < m.rank; ++d) corners += fmt::format("{}{}..{}", d ? ", " : "", m.lower[d], m.upper[d]);
    box = fmt::format("im2col {} channels x {} pixels, corners {}", m.channels, m.pixels, corners);
  }
  for (unsigned d = 0; d < m.rank && !m.im2col; ++d) box += fmt::format("{}{}", d ? "x" : "", m.box[d]);
  static const char* const kSwizzle[] = {"no swizzle", "32B swizzle", "64B swizzle", "128B swizzle"};
  return fmt::format("{}-D {} tensor {} at 0x{:x}, box {}, {}", m.rank, type_name(m.data_type), dims, m.global_address,
                     box, kSwizzle[m.swizzle & 3]);
}

}  // namespace warpscope::exec::tma
