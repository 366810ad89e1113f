#include "exec/texture.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "exec/smallfloat.hpp"

namespace warpscope {

// --- the modelled block-linear layout (docs/mem.md, "CUDA arrays") -----------------------------

namespace {

constexpr std::uint64_t kGobWidth = 64;   // bytes
constexpr std::uint64_t kGobHeight = 8;   // rows
constexpr std::uint64_t kGobBytes = kGobWidth * kGobHeight;

std::uint64_t row_bytes(const Image& im) { return std::uint64_t{im.width} * im.format.bytes(); }
std::uint64_t gobs_per_row(const Image& im) { return (row_bytes(im) + kGobWidth - 1) / kGobWidth; }
std::uint64_t block_rows(const Image& im) {
  const std::uint64_t gob_rows = (std::uint64_t{im.height} + kGobHeight - 1) / kGobHeight;
  return (gob_rows + im.block_height - 1) / im.block_height;
}
std::uint64_t slice_bytes(const Image& im) {
  return gobs_per_row(im) * block_rows(im) * im.block_height * kGobBytes;
}

}  // namespace

void make_block_linear(Image& image) {
  image.layout = ImageLayout::kBlockLinear;
  const std::uint64_t gob_rows = (std::uint64_t{image.height} + kGobHeight - 1) / kGobHeight;
  std::uint32_t bh = 1;
  while (bh < 16 && bh < gob_rows) bh *= 2;
  image.block_height = bh;
}

std::uint64_t image_bytes(const Image& im) {
  switch (im.layout) {
    case ImageLayout::kLinear: return row_bytes(im);
    case ImageLayout::kPitch: return im.pitch * (std::uint64_t{im.height} - 1) + row_bytes(im);
    case ImageLayout::kBlockLinear: return slice_bytes(im) * im.slices();
  }
  return 0;
}

std::uint64_t image_offset(const Image& im, std::uint32_t x, std::uint32_t y, std::uint32_t slice) {
  const std::uint64_t xb = std::uint64_t{x} * im.format.bytes();
  switch (im.layout) {
    case ImageLayout::kLinear: return xb;
    case ImageLayout::kPitch: return std::uint64_t{y} * im.pitch + xb;
    case ImageLayout::kBlockLinear: break;
  }
  const std::uint64_t block_bytes = std::uint64_t{im.block_height} * kGobBytes;
  const std::uint64_t block = (y / (kGobHeight * im.block_height)) * gobs_per_row(im) + xb / kGobWidth;
  const std::uint64_t gob_in_block = (y / kGobHeight) % im.block_height;
  const std::uint64_t xg = xb % kGobWidth, yg = y % kGobHeight;
  // Inside a GOB: 16-byte x 2-row pieces (the swizzle of NVIDIA's GOBs as open-source drivers
  // describe them for Maxwell and later).
  const std::uint64_t in_gob = (xg / 32) * 256 + (yg / 2) * 64 + ((xg % 32) / 16) * 32 + (yg % 2) * 16 + xg % 16;
  return std::uint64_t{slice} * slice_bytes(im) + block * block_bytes + gob_in_block * kGobBytes + in_gob;
}

ImageAddressing::ImageAddressing(const Image& im) {
  texel_shift_ = static_cast<unsigned>(std::countr_zero(im.format.bytes()));
  block_linear_ = im.layout == ImageLayout::kBlockLinear;
  pitch_ = im.layout == ImageLayout::kPitch ? im.pitch : 0;
  if (!block_linear_) return;
  block_shift_ = 3 + static_cast<unsigned>(std::countr_zero(im.block_height));
  block_mask_ = im.block_height - 1;
  gobs_per_row_ = gobs_per_row(im);
  block_bytes_ = std::uint64_t{im.block_height} * kGobBytes;
  slice_bytes_ = slice_bytes(im);
}

}  // namespace warpscope

namespace warpscope::exec {

std::uint64_t ObjectTable::add(const TexObject& object) {
  const std::uint64_t h = next_++;
  objects_.emplace(h, object);
  return h;
}

void ObjectTable::remove(std::uint64_t handle, TexObject::Kind kind) {
  auto it = objects_.find(handle);
  if (it == objects_.end() || it->second.kind != kind || it->second.reference)
    fail(ErrorKind::kUsage, "{} is not a {} object", handle, kind == TexObject::Kind::kTexture ? "texture" : "surface");
  objects_.erase(it);
}

std::uint64_t ObjectTable::add_reference(TexObject::Kind kind, const std::string& name) {
  TexObject o;
  o.kind = kind;
  o.reference = true;
  o.bound = false;
  o.name = name;
  return add(o);
}

void ObjectTable::bind(std::uint64_t handle, const TexObject& object) {
  auto it = objects_.find(handle);
  if (it == objects_.end() || !it->second.reference || it->second.kind != object.kind)
    fail(ErrorKind::kUsage, "{} is not a {} reference", handle, object.kind == TexObject::Kind::kTexture ? "texture" : "surface");
  TexObject o = object;
  o.reference = true;
  o.bound = true;
  o.name = it->second.name;
  it->second = std::move(o);
}

void ObjectTable::unbind(std::uint64_t handle, const std::string& why) {
  auto it = objects_.find(handle);
  if (it == objects_.end() || !it->second.reference) fail(ErrorKind::kUsage, "{} is not a texture or surface reference", handle);
  TexObject o;
  o.kind = it->second.kind;
  o.reference = true;
  o.bound = false;
  o.name = it->second.name;
  o.unbound_why = why;
  it->second = std::move(o);
}

const TexObject* ObjectTable::find(std::uint64_t handle) const {
  auto it = objects_.find(handle);
  return it == objects_.end() ? nullptr : &it->second;
}

namespace {

/// The weight of the upper texel: frac(v) in 8 fractional bits (0 ... 1 inclusive), ties up.
float weight8(double v) { return static_cast<float>(std::floor((v - std::floor(v)) * 256.0 + 0.5) / 256.0); }

}  // namespace

std::int64_t floor_index(double v) {
  if (!(v > -1e18 && v < 1e18)) return v > 0 ? std::int64_t{1} << 60 : -(std::int64_t{1} << 60);
  return static_cast<std::int64_t>(std::floor(v));
}

bool returns_float(const TexObject& t) {
  return t.image.format.kind == ChannelKind::kFloat || t.sampler.read == ReadMode::kNormalizedFloat;
}

Footprint footprint(const TexObject& t, unsigned dims, double x, double y, double z, std::uint32_t slice, bool linear) {
  const Image& im = t.image;
  const std::int64_t size[3] = {im.width, im.height, im.layers == 0 && im.depth != 0 ? std::int64_t{im.depth} : 1};
  const double c[3] = {x, y, z};
  std::int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  float w[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d) {
    if (linear) {
      const double xb = c[d] - 0.5;
      lo[d] = floor_index(xb);
      w[d] = weight8(xb);  // may round to 1.0 (the 9-bit weight holds it)
      hi[d] = lo[d] + 1;
    } else {
      lo[d] = hi[d] = floor_index(c[d]);
    }
  }
  Footprint f;
  const unsigned corners = linear ? 1u << dims : 1u;
  for (unsigned k = 0; k < corners; ++k) {
    float weight = 1.0f;
    std::array<std::int64_t, 3> texel{0, 0, slice};
    bool border = false;
    for (unsigned d = 0; d < dims; ++d) {
      const bool upper = ((k >> d) & 1u) != 0;
      if (linear) weight *= upper ? w[d] : 1.0f - w[d];
      const std::int64_t i = address_index(effective_address(t.sampler, d), upper ? hi[d] : lo[d], size[d]);
      if (i < 0) border = true;
      if (d < 2) texel[d] = i; else texel[2] = slice + i;
    }
    if (border) texel[0] = -1;
    f.texel[f.count] = texel;
    f.weight[f.count] = weight;
    ++f.count;
  }
  return f;
}

Footprint mip_footprint(const TexObject& t, const Image& level, unsigned dims, double x, double y, double z,
                        std::uint32_t slice, bool linear, std::uint32_t share) {
  const std::int64_t size[3] = {level.width, level.height, level.depth != 0 ? std::int64_t{level.depth} : 1};
  const double c[3] = {x, y, z};
  Footprint f;
  if (!linear) {
    f.count = 1;
    f.texel[0] = {0, 0, slice};
    for (unsigned d = 0; d < dims; ++d) {
      const std::int64_t i = address_index(effective_address(t.sampler, d), floor_index(c[d]), size[d]);
      if (i < 0) f.texel[0][0] = -1;
      else if (f.texel[0][0] >= 0) f.texel[0][d] = i;
    }
    f.weight[0] = static_cast<float>(share) / 256.0f;
    return f;
  }
  // Clamp addressing only: the coordinate is clamped to the centres of the edge texels first.
  std::int64_t lo[3] = {0, 0, 0};
  std::uint32_t w[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d) {
    const double v = std::clamp(c[d], 0.5, static_cast<double>(size[d]) - 0.5) - 0.5;
    lo[d] = floor_index(v);
    w[d] = static_cast<std::uint32_t>(weight8(v) * 256.0f);
  }
  auto rnd = [](std::uint32_t n) { return (n + 128) / 256; };
  // 3-D: the share is split between the two slices first, the lower slice rounded (ties up) and
  // the upper one the rest; then each slice's part as one level of a 2-D texture.
  const std::uint32_t slice_share[2] = {dims == 3 ? rnd(share * (256 - w[2])) : share,
                                        dims == 3 ? share - rnd(share * (256 - w[2])) : 0};
  for (unsigned uz = 0; uz < (dims == 3 ? 2u : 1u); ++uz) {
    // The part L of a slice split along x (the upper column rounded, ties up), then each column
    // along y: the lower texel of column 0 and the upper texel of column 1 rounded, ties up.
    const std::uint32_t part = slice_share[uz];
    const std::uint32_t c1 = rnd(part * w[0]), c0 = part - c1;
    std::uint32_t split[2][2] = {{c0, 0}, {c1, 0}};  // [x][y]
    if (dims >= 2) {
      split[0][0] = rnd(c0 * (256 - w[1]));
      split[0][1] = c0 - split[0][0];
      split[1][1] = rnd(c1 * w[1]);
      split[1][0] = c1 - split[1][1];
    }
    const std::int64_t k = dims == 3 ? std::clamp<std::int64_t>(lo[2] + uz, 0, size[2] - 1) : slice;
    for (unsigned n = 0; n < (dims >= 2 ? 4u : 2u); ++n) {
      const unsigned ux = n & 1u, uy = (n >> 1) & 1u;
      const std::int64_t i = std::clamp<std::int64_t>(lo[0] + ux, 0, size[0] - 1);
      const std::int64_t j = dims >= 2 ? std::clamp<std::int64_t>(lo[1] + uy, 0, size[1] - 1) : 0;
      f.texel[f.count] = {i, j, k};
      f.weight[f.count] = static_cast<float>(split[ux][uy]) / 256.0f;
      ++f.count;
    }
  }
  return f;
}

Footprint gather_footprint(const TexObject& t, double x, double y, std::uint32_t slice) {
  const Image& im = t.image;
  const std::int64_t i = floor_index(x - 0.5), j = floor_index(y - 0.5);
  const std::int64_t pos[4][2] = {{i, j + 1}, {i + 1, j + 1}, {i + 1, j}, {i, j}};
  Footprint f;
  for (const auto& p : pos) {
    const std::int64_t a = address_index(effective_address(t.sampler, 0), p[0], im.width);
    const std::int64_t b = address_index(effective_address(t.sampler, 1), p[1], im.height);
    f.texel[f.count] = {a < 0 || b < 0 ? -1 : a, b, slice};
    f.weight[f.count] = 1.0f;
    ++f.count;
  }
  return f;
}

namespace {

float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

}  // namespace

std::array<std::uint32_t, 4> fetch_texel(const TexObject& t, const std::uint8_t* p, bool& float_result) {
  const TexelFormat& f = t.image.format;
  float_result = returns_float(t);
  std::array<std::uint32_t, 4> out{0, 0, 0, 0};
  const unsigned bytes = f.bits / 8;
  for (unsigned ch = 0; ch < f.channels; ++ch) {
    std::uint32_t raw = 0;
    std::memcpy(&raw, p + ch * bytes, bytes);
    std::uint32_t v = raw;
    if (f.kind == ChannelKind::kFloat) {
      if (f.bits == 16) v = std::bit_cast<std::uint32_t>(f16_to_f32(static_cast<std::uint16_t>(raw)));
    } else if (t.sampler.read == ReadMode::kNormalizedFloat) {
      float n;
      if (f.kind == ChannelKind::kUnsigned) {
        n = static_cast<float>(raw) / static_cast<float>((1u << f.bits) - 1u);
        if (t.sampler.srgb && f.bits == 8 && ch < 3) n = srgb_to_linear(n);
      } else {
        const std::int32_t s = f.bits == 8 ? static_cast<std::int8_t>(raw) : static_cast<std::int16_t>(raw);
        n = std::max(-1.0f, static_cast<float>(s) / static_cast<float>((1 << (f.bits - 1)) - 1));
      }
      v = std::bit_cast<std::uint32_t>(n);
    } else if (f.kind == ChannelKind::kSigned && f.bits < 32) {
      const std::int32_t s = f.bits == 8 ? static_cast<std::int8_t>(raw) : static_cast<std::int16_t>(raw);
      v = static_cast<std::uint32_t>(s);
    }
    out[ch] = v;
  }
  return out;
}

std::array<std::uint32_t, 4> border_texel(const TexObject& t) {
  if (!returns_float(t))
    fail(ErrorKind::kUnsupported, "the border colour of a texture that returns integers (not documented)");
  std::array<std::uint32_t, 4> out{};
  const TexelFormat& f = t.image.format;
  // Channels the format lacks read 0 at the border as inside (H100 f32_2d_*_border samples, H200
  // texref "arr linear border": a one-channel texture's border is (r, 0, 0, 0)).
  for (unsigned ch = 0; ch < f.channels; ++ch) {
    float c = t.sampler.border[ch];
    if (f.kind == ChannelKind::kUnsigned && f.bits < 32 && t.sampler.read == ReadMode::kNormalizedFloat) {
      const double m = static_cast<double>((1u << f.bits) - 1u);
      const double q = std::ceil(std::clamp(static_cast<double>(c), 0.0, 1.0) * m - 0.5);  // nearest, ties down
      c = static_cast<float>(q / m);
    }
    out[ch] = std::bit_cast<std::uint32_t>(c);
  }
  return out;
}

bool filters_integers(const TexObject& t) {
  const TexelFormat& f = t.image.format;
  if (f.kind == ChannelKind::kFloat || t.sampler.read != ReadMode::kNormalizedFloat || t.sampler.srgb) return false;
  return f.bits == 16 || (f.bits == 8 && f.kind == ChannelKind::kUnsigned);
}

std::array<double, 4> filter_texel(const TexObject& t, const std::uint8_t* p) {
  const TexelFormat& f = t.image.format;
  std::array<double, 4> out{0, 0, 0, 0};
  const unsigned bytes = f.bits / 8;
  for (unsigned ch = 0; ch < f.channels; ++ch) {
    std::uint32_t raw = 0;
    std::memcpy(&raw, p + ch * bytes, bytes);
    if (f.kind == ChannelKind::kUnsigned) out[ch] = f.bits == 8 ? raw * 257.0 : raw;
    else out[ch] = static_cast<std::int16_t>(raw);
  }
  return out;
}

std::array<double, 4> filter_border(const TexObject& t) {
  const auto b = border_texel(t);
  const double m = t.image.format.kind == ChannelKind::kUnsigned ? 65535.0 : 32767.0;
  std::array<double, 4> out{};
  for (unsigned ch = 0; ch < 4; ++ch) out[ch] = std::nearbyint(std::bit_cast<float>(b[ch]) * m);
  return out;
}

std::uint32_t finish_filter(const TexObject& t, unsigned, double sum) {
  const double r = std::floor(sum + 0.5);
  if (t.image.format.kind == ChannelKind::kUnsigned) return std::bit_cast<std::uint32_t>(static_cast<float>(r) / 65535.0f);
  return std::bit_cast<std::uint32_t>(std::max(-1.0f, static_cast<float>(r) / 32767.0f));
}

void cube_face(float x, float y, float z, unsigned& face, float& s, float& t) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, sc, tc;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  if (m == 0.0f) fail(ErrorKind::kUnsupported, "a cubemap fetch with the zero direction");
  s = (sc / m + 1.0f) * 0.5f;
  t = (tc / m + 1.0f) * 0.5f;
}

std::uint32_t pack_channel(const TexelFormat& f, std::uint32_t value) {
  if (f.kind == ChannelKind::kFloat)
    return f.bits == 16 ? f32_to_f16(std::bit_cast<float>(value)) : value;
  return f.bits == 32 ? value : value & ((1u << f.bits) - 1u);
}

}  // namespace warpscope::exec
