// Images (texel data in device memory), samplers, and the texture and surface objects kernels
// name by a 64-bit handle (PTX `tex`, `tld4`, `txq`, `suld`, `sust`, `sured`, `suq`; docs/exec.md,
// "Textures and surfaces").
//
// An Image says how texels lie in device memory:
//  - kLinear: x * texel bytes from `base` (cudaResourceTypeLinear, 1-D only);
//  - kPitch: row y at y * pitch (cudaResourceTypePitch2D);
//  - kBlockLinear: CUDA arrays. The GPU's tiled layout is not public; warpscope models the
//    layout described in docs/mem.md ("CUDA arrays"): 64-byte x 8-row GOBs of 512 bytes, swizzled
//    inside in 16-byte x 2-row pieces, stacked `block_height` GOBs high; each slice (3-D depth or
//    layer) a whole number of blocks. image_offset() is that layout.
#pragma once

#include <array>
#include <cstdint>

#include "warpscope/warpscope.hpp"

namespace warpscope {

/// cudaChannelFormatKind, as far as textures go.
enum class ChannelKind : std::uint8_t { kSigned, kUnsigned, kFloat };

/// A texel: 1, 2 or 4 channels of one kind, each 8, 16 or 32 bits (16-bit floats are halves).
struct TexelFormat {
  std::uint8_t channels = 1;
  std::uint8_t bits = 32;
  ChannelKind kind = ChannelKind::kFloat;
  std::uint32_t bytes() const { return std::uint32_t{channels} * bits / 8; }
};

enum class ImageLayout : std::uint8_t { kLinear, kPitch, kBlockLinear };

struct Image {
  DevicePtr base = 0;
  ImageLayout layout = ImageLayout::kLinear;
  TexelFormat format;
  std::uint32_t width = 1, height = 1;  // texels
  std::uint32_t depth = 0;   // 3-D images: depth; 0 for 1-D and 2-D images
  std::uint32_t layers = 0;  // layered images: number of layers (cubemaps: 6 x cubes); else 0
  bool cubemap = false;
  std::uint64_t pitch = 0;   // kPitch: bytes per row
  std::uint32_t block_height = 1;  // kBlockLinear: GOBs per block (set by make_block_linear)
  std::uint32_t levels = 1;        // mipmap levels of the texture (Device::create_texture with levels)

  /// Slices (3-D depth, or layers), at least 1.
  std::uint32_t slices() const { return layers != 0 ? layers : depth != 0 ? depth : 1; }
};

/// image_offset() with the image's constants worked out once (for the interpreter's lane loops).
class ImageAddressing {
 public:
  explicit ImageAddressing(const Image& image);
  std::uint64_t offset(std::uint32_t x, std::uint32_t y, std::uint32_t slice) const {
    const std::uint64_t xb = std::uint64_t{x} << texel_shift_;
    if (!block_linear_) return std::uint64_t{y} * pitch_ + xb;
    const std::uint64_t xg = xb & 63, yg = y & 7;
    const std::uint64_t in_gob = (xg >> 5) * 256 + (yg >> 1) * 64 + ((xg >> 4) & 1) * 32 + (yg & 1) * 16 + (xg & 15);
    return std::uint64_t{slice} * slice_bytes_ + ((y >> block_shift_) * gobs_per_row_ + (xb >> 6)) * block_bytes_ +
           ((y >> 3) & block_mask_) * 512 + in_gob;
  }

 private:
  bool block_linear_ = false;
  unsigned texel_shift_ = 0, block_shift_ = 0;
  std::uint64_t pitch_ = 0, gobs_per_row_ = 0, block_bytes_ = 0, block_mask_ = 0, slice_bytes_ = 0;
};

/// Sets `block_height` for a block-linear image of this size (the model of docs/mem.md).
void make_block_linear(Image& image);
/// Bytes a block-linear or pitch image spans from `base` (linear: width * texel bytes).
std::uint64_t image_bytes(const Image& image);
/// Byte offset from `base` of the texel (x, y, slice) (no range check).
std::uint64_t image_offset(const Image& image, std::uint32_t x, std::uint32_t y, std::uint32_t slice);

enum class AddressMode : std::uint8_t { kWrap, kClamp, kMirror, kBorder };
enum class FilterMode : std::uint8_t { kPoint, kLinear };
enum class ReadMode : std::uint8_t { kElementType, kNormalizedFloat };

struct Sampler {
  std::array<AddressMode, 3> address{AddressMode::kWrap, AddressMode::kWrap, AddressMode::kWrap};
  FilterMode filter = FilterMode::kPoint;
  ReadMode read = ReadMode::kElementType;
  bool normalized_coords = false;
  bool srgb = false;
  std::array<float, 4> border{0, 0, 0, 0};
  // Mipmapped textures (cudaTextureDesc's mipmap fields): the level of detail of tex.level is its
  // operand plus `mip_bias`, clamped to [min_lod, max_lod] and to the levels there are.
  FilterMode mip_filter = FilterMode::kPoint;
  float mip_bias = 0, min_lod = 0, max_lod = 0;
};

}  // namespace warpscope
