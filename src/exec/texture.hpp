// Texture and surface objects: the table of handles a Device hands out, and the texture unit's
// arithmetic (addressing, filtering, texel formats) the semantic functions of ops_tex.cpp use.
//
// Rules (CUDA C++ Programming Guide, appendix "Texture Fetching"; PTX ISA, "Texture Instructions"
// and "Surface Instructions"), applied per lane:
//  - Coordinates: with normalized coordinates x is multiplied by the size (width, height, depth);
//    integer (.s32) coordinates address texels directly and are never filtered.
//  - Point filtering: texel i = floor(x). Linear filtering: xB = x - 0.5, i = floor(xB), and the
//    weight a = frac(xB) rounded to 8 fractional bits (the guide's 9-bit fixed point with 8
//    fractional bits); the result is (1-a)T[i] + aT[i+1] per dimension, in f32.
//  - Address modes act on texel indices: wrap (i mod N), mirror (i mod 2N, reflected), clamp
//    (to [0, N-1]), border (outside [0, N): the border colour). Wrap and mirror are only defined
//    for normalized coordinates: with unnormalized ones the H100 clamps (tests/hw/data/h100/texture:
//    every *_wrap_unnorm / *_mirror_unnorm sample equals the *_clamp_unnorm one), and so do we.
//  - Scaling by the size is exact (no f32 rounding before floor: the H100's pitch_f32_point_*_norm
//    samples at -0.2 * 5 read texel -2, not -1); the weight rounds half up (f32_2d_linear_fine).
//  - Layers are clamped to [0, layers-1] as unsigned numbers (layer -1 reads the last layer, as on
//    the H100); cubemap directions pick a face by their major axis
//    (ties: x before y before z) and become normalized coordinates on that face (point filtering
//    only: the guide does not say how linear filtering crosses cube edges).
//  - Read modes: element type (floats as they are, halves widened, integers as 32-bit integers);
//    normalized float for 8- and 16-bit integers (unsigned / (2^n - 1), signed / (2^(n-1) - 1)
//    clamped to -1). sRGB applies the sRGB-to-linear curve to 8-bit unsigned normalized texels.
//  - Missing channels read as 0, the 4th too (the H100's s16x2 samples have alpha 0).
//  - Linear filtering of 8/16-bit integers read as normalized float happens in the integer domain
//    (8 bits widened to 16 by x*257), rounded to an integer, then normalized; half textures' filtered
//    results are rounded to half; f32 results are the exact weighted sum rounded once.
//  - The border colour of an unsigned normalized-integer texture is quantized to the format (ties
//    down: 0.5 -> 127/255 for 8 bits, as the H100's u8x4_normf_point_border shows).
// Everything the rules above leave open (linear filtering of integer texels, border colours of
// integer textures, tex.grad on mipmapped textures, layered-cubemap levels, multisampling) is
// refused with Error(kUnsupported).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpscope/texture.hpp"

namespace warpscope::exec {

struct TexObject {
  enum class Kind : std::uint8_t { kTexture, kSurface };
  Kind kind = Kind::kTexture;
  Image image;
  Sampler sampler;
  std::vector<Image> mip;  // a mipmapped texture's levels (mip[0] == image); empty otherwise
  // A texture or surface reference (a module's .texref/.surfref variable): `name` is the
  // variable's; `bound` false until the driver binds memory to it (then image, sampler, mip hold).
  bool reference = false;
  bool bound = true;
  std::string name;
  std::string unbound_why;  // unbound: why, for the message of a fetch (empty: never bound)
};

/// Handles -> objects. Handles start at 1 and are never reused. Changed only between launches.
class ObjectTable {
 public:
  std::uint64_t add(const TexObject& object);
  /// Throws kUsage for a handle that is not an object of that kind.
  void remove(std::uint64_t handle, TexObject::Kind kind);
  const TexObject* find(std::uint64_t handle) const;
  /// A reference of that kind, unbound; bind() replaces what it is bound to (its kind, reference
  /// flag and name stay), unbind() leaves it unbound. Both throw kUsage for a handle that is no
  /// reference of that kind.
  std::uint64_t add_reference(TexObject::Kind kind, const std::string& name);
  void bind(std::uint64_t handle, const TexObject& object);
  void unbind(std::uint64_t handle, const std::string& why);

 private:
  std::map<std::uint64_t, TexObject> objects_;
  std::uint64_t next_ = 1;
};

/// A texel index through an address mode; -1 for a border texel.
inline std::int64_t address_index(AddressMode mode, std::int64_t i, std::int64_t n) {
  if (static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(n)) return i;  // inside: every mode agrees
  switch (mode) {
    case AddressMode::kWrap: return ((i % n) + n) % n;
    case AddressMode::kMirror: {
      const std::int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case AddressMode::kClamp: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case AddressMode::kBorder: return i < 0 || i >= n ? -1 : i;
  }
  return 0;
}

/// Up to 8 texel positions (x, y, slice) and their weights, the footprint of one fetch.
struct Footprint {
  std::uint32_t count = 0;
  std::array<std::array<std::int64_t, 3>, 8> texel{};  // x, y, slice; x < 0: the border colour
  std::array<float, 8> weight{};
};

/// The footprint of a fetch at texel-space coordinates (x, y, z) (already scaled), on a face or
/// layer `slice`. `dims` is 1, 2 or 3; `linear` selects linear filtering. Throws kUnsupported
/// (message without context: the caller adds the kernel and line) for undefined combinations.
Footprint footprint(const TexObject& t, unsigned dims, double x, double y, double z, std::uint32_t slice, bool linear);

/// The footprint on one level of a mipmapped 1-D, 2-D or 3-D texture at texel-space coordinates of
/// that level, for a level whose share of the fetch is `share`/256 (the weights are in 1/256, H200:
/// tests/hw/data/h200/texture_mip). Texels are (x, y, slice): the layer or face `slice`, or for
/// 3-D textures the z index. Linear filtering needs clamp addressing.
Footprint mip_footprint(const TexObject& t, const Image& level, unsigned dims, double x, double y, double z,
                        std::uint32_t slice, bool linear, std::uint32_t share);

/// The four texels of tld4 (the 2x2 footprint of linear filtering) in PTX order: (i, j+1),
/// (i+1, j+1), (i+1, j), (i, j).
Footprint gather_footprint(const TexObject& t, double x, double y, std::uint32_t slice);

/// The address mode the texture unit applies in dimension d: wrap and mirror with unnormalized
/// coordinates act as clamp (H100).
inline AddressMode effective_address(const Sampler& s, unsigned d) {
  const AddressMode m = s.address[d];
  if (!s.normalized_coords && (m == AddressMode::kWrap || m == AddressMode::kMirror)) return AddressMode::kClamp;
  return m;
}

/// Whether linear filtering of this texture happens in the integer domain (8/16-bit integers read
/// as normalized float); then filter_texel gives the values to weight and finish_filter the result.
bool filters_integers(const TexObject& t);
std::array<double, 4> filter_texel(const TexObject& t, const std::uint8_t* texel);
std::array<double, 4> filter_border(const TexObject& t);
std::uint32_t finish_filter(const TexObject& t, unsigned channel, double sum);

std::int64_t floor_index(double v);

/// One texel's channels as the texture returns them: 4 values, each either f32 bits (float
/// results) or a 32-bit integer. `float_result` says which.
std::array<std::uint32_t, 4> fetch_texel(const TexObject& t, const std::uint8_t* texel, bool& float_result);
/// The border colour in the texture's result form.
std::array<std::uint32_t, 4> border_texel(const TexObject& t);

/// Whether the texture returns floats (float formats, or normalized-float reads).
bool returns_float(const TexObject& t);

/// Cubemap: direction -> face (0..5) and normalized face coordinates (s, t) in [0, 1].
void cube_face(float x, float y, float z, unsigned& face, float& s, float& t);

/// Converts a value of a surface-format channel for sust.p (f32 bits or 32-bit integer) to the
/// channel's bits.
std::uint32_t pack_channel(const TexelFormat& f, std::uint32_t value);

}  // namespace warpscope::exec
