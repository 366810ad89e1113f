// tex, tld4, txq (textures) and suld, sust, sured, suq (surfaces) on object handles held in
// registers (docs/exec.md, "Textures and surfaces"; the arithmetic is texture.cpp's).
//
// Inst layout: v[0..3] the data registers (destinations of tex/tld4/suld, sources of sust),
// a/b/c/e the coordinate slots in PTX order, aux2 the handle slot, d the destination of
// txq/suq or the source of sured; aux packs the modifiers (TexBits), width the bytes of one
// surface element, vec their number.
//
// Every lane is computed before any register or memory is written, so a faulting instruction
// has no effect. Records: a texture fetch makes one kTexture record per texel of the lanes'
// footprints (WarpAccess::part), a surface access one kSurface record.
#include <bit>
#include <cmath>

#include "common/error.hpp"
#include "exec/fault.hpp"
#include "exec/ops_common.hpp"
#include "exec/smallfloat.hpp"
#include "exec/texture.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::TexGeom;
using ptx::Type;

/// Inst::aux for the texture and surface instructions.
struct TexBits {
  TexGeom geom = TexGeom::kNone;
  bool int_coords = false;          // .s32 coordinates
  std::uint8_t comp = 0;            // tld4 channel
  ptx::SurfClamp clamp = ptx::SurfClamp::kTrap;
  bool formatted = false;           // sust.p
  ptx::TexQuery query = ptx::TexQuery::kNone;
  ptx::ReduceOp reduce = ptx::ReduceOp::kNone;
  bool is_signed = false;           // sured .s32/.s64
  ptx::TexMode mode = ptx::TexMode::kNone;  // tex .level / .grad

  std::uint32_t pack() const {
    return static_cast<std::uint32_t>(geom) | (int_coords ? 1u << 3 : 0u) | std::uint32_t{comp} << 4 |
           static_cast<std::uint32_t>(clamp) << 6 | (formatted ? 1u << 8 : 0u) |
           static_cast<std::uint32_t>(query) << 9 | static_cast<std::uint32_t>(reduce) << 14 |
           (is_signed ? 1u << 19 : 0u) | static_cast<std::uint32_t>(mode) << 20;
  }
  static TexBits unpack(std::uint32_t v) {
    TexBits b;
    b.geom = static_cast<TexGeom>(v & 7u);
    b.int_coords = (v >> 3) & 1u;
    b.comp = static_cast<std::uint8_t>((v >> 4) & 3u);
    b.clamp = static_cast<ptx::SurfClamp>((v >> 6) & 3u);
    b.formatted = (v >> 8) & 1u;
    b.query = static_cast<ptx::TexQuery>((v >> 9) & 31u);
    b.reduce = static_cast<ptx::ReduceOp>((v >> 14) & 31u);
    b.is_signed = (v >> 19) & 1u;
    b.mode = static_cast<ptx::TexMode>((v >> 20) & 3u);
    return b;
  }
};

[[noreturn]] void refuse(const Ctx& x, const Inst& in, unsigned lane, ErrorKind kind, const std::string& what) {
  lane_fault(x, x.pc_of(in), kind, lane, what);
}

/// The object of a lane's handle, of the kind the instruction needs.
const TexObject& object_of(const Ctx& x, const Inst& in, unsigned lane, TexObject::Kind kind) {
  const std::uint64_t h = x.reg(in.aux2)[lane];
  const TexObject* o = x.objects == nullptr ? nullptr : x.objects->find(h);
  const char* want = kind == TexObject::Kind::kTexture ? "texture" : "surface";
  if (o == nullptr) refuse(x, in, lane, ErrorKind::kTrap, fmt::format("invalid {} object handle {} (never created, or destroyed)", want, h));
  if (o->kind != kind) refuse(x, in, lane, ErrorKind::kTrap, fmt::format("handle {} is not a {} object", h, want));
  if (!o->bound)  // the H200 reads zeros through an unbound texture reference (tests/hw/data/h200/texref)
    refuse(x, in, lane, ErrorKind::kUnsupported,
           o->unbound_why.empty()
               ? fmt::format("{} reference '{}' is not bound to memory (cu{}RefSetArray{}); warpscope refuses the access", want,
                             o->name, kind == TexObject::Kind::kTexture ? "Tex" : "Surf",
                             kind == TexObject::Kind::kTexture ? ", cuTexRefSetAddress" : "")
               : fmt::format("{} reference '{}': {}", want, o->name, o->unbound_why));
  return *o;
}

/// The last handle an instruction resolved, with its image's host memory (warps almost always
/// use one handle for all lanes).
struct HandleCache {
  std::uint64_t handle = 0;
  const TexObject* object = nullptr;
  const std::uint8_t* host = nullptr;
  ImageAddressing addressing{Image{}};
  bool is_float = false;
  bool point_f32 = false;  // the fast path of exec_tex: point sampling of 32-bit float texels
};

/// Host memory of an object's image (the allocation must still hold it).
const std::uint8_t* image_host(const Ctx& x, const Inst& in, unsigned lane, const Image& im) {
  const Region* r = x.global->find(im.base, image_bytes(im));
  if (r == nullptr)
    refuse(x, in, lane, ErrorKind::kOutOfBounds,
           fmt::format("the memory of the {} at 0x{:x} is no longer allocated", "image", im.base));
  return r->host + (im.base - r->base);
}

std::int32_t coord_i(const Ctx& x, std::uint32_t slot, unsigned lane) { return static_cast<std::int32_t>(x.reg(slot)[lane]); }
float coord_f(const Ctx& x, std::uint32_t slot, unsigned lane) { return get<float>(x.reg(slot)[lane]); }

/// Records: one per footprint texel position k over the lanes that have it (up to 16: the 8 texels
/// of a 3-D footprint on each of two mipmap levels).
struct TexRecords {
  static constexpr unsigned kParts = 16;
  std::uint32_t mask[kParts] = {};
  std::uint64_t addr[kParts][kLanes] = {};
  std::uint8_t width = 4;
  bool texel_fetch = false;
  void emit(Ctx& x, const Inst& in, Space space, Op op) const {
    WarpAccess rec;
    rec.pc = x.pc_of(in);
    rec.cta = x.cta_linear;
    rec.warp = x.warp_index;
    rec.space = space;
    rec.op = op;
    rec.width = width;
    rec.texel_fetch = texel_fetch;
    std::uint8_t part = 0;
    for (unsigned k = 0; k < kParts; ++k) {
      if (mask[k] == 0) continue;
      rec.part = part++;
      rec.active = LaneMask(mask[k]);
      rec.addr.fill(0);
      for_lanes(mask[k], [&](unsigned l) { rec.addr[l] = addr[k][l]; });
      x.sink->on_access(rec);
    }
  }
};

unsigned geom_dims(TexGeom g) {
  switch (g) {
    case TexGeom::k1d: case TexGeom::kA1d: return 1;
    case TexGeom::k3d: return 3;
    default: return 2;
  }
}
bool layered(TexGeom g) { return g == TexGeom::kA1d || g == TexGeom::kA2d || g == TexGeom::kACube; }
bool cube(TexGeom g) { return g == TexGeom::kCube || g == TexGeom::kACube; }

/// Checks that the instruction's geometry fits the image; the message says why not.
std::string geometry_mismatch(TexGeom g, const Image& im) {
  const bool is_layered = im.layers != 0 && !im.cubemap;
  const bool is_3d = im.layers == 0 && im.depth != 0;
  if (cube(g) != im.cubemap || (g == TexGeom::kACube) != (im.cubemap && im.layers > 6) ||
      (layered(g) && !cube(g) && !is_layered) || (!layered(g) && !cube(g) && is_layered) || (g == TexGeom::k3d) != is_3d)
    return fmt::format("a .{} access to a {}x{}x{} image ({} layers{})", to_string(g), im.width, im.height, im.depth,
                       im.layers, im.cubemap ? ", cubemap" : "");
  if (g == TexGeom::k1d && im.height > 1)  // the H200 reads 0 (tests/hw/data/h200/texref, "tex via mov")
    return fmt::format("a .1d access to a {}x{} image (the H200 reads 0)", im.width, im.height);
  return {};
}

/// What a fetch from a mipmapped texture must satisfy (tests/hw/data/h200/texture_mip measures
/// these forms); the message names the form refused.
void check_mip(const Ctx& x, const Inst& in, unsigned l, const TexBits& b, const TexObject& t, bool gather) {
  const Image& im = t.image;
  const Sampler& s = t.sampler;
  std::string why;
  const bool linear = s.filter == FilterMode::kLinear || s.mip_filter == FilterMode::kLinear;
  if (gather) why = "tld4 (gather)";
  else if (b.mode == ptx::TexMode::kGrad)
    why = "tex.grad (no rule found reproduces the H200's level of detail from gradients: "
          "tests/hw/data/h200/texture_mip/README.md)";
  else if (b.mode != ptx::TexMode::kLevel) why = fmt::format("tex.{} without .level", to_string(b.geom));
  else if (b.geom == TexGeom::kACube) why = "tex.level.acube (layered cubemap levels are not measured)";
  else if (b.int_coords) why = "tex.level with integer coordinates";
  else if (!s.normalized_coords) why = "tex.level with unnormalized coordinates";
  else if (linear && !(im.format.kind == ChannelKind::kFloat && im.format.bits == 32 && s.read == ReadMode::kElementType))
    why = "linear filtering of texels other than 32-bit floats";
  else if (s.filter == FilterMode::kLinear && cube(b.geom))
    why = "linear filtering of a cubemap (the H200's filtering across cube edges is not measured)";
  else if (s.filter == FilterMode::kLinear)
    for (unsigned d = 0; d < geom_dims(b.geom); ++d)
      if (s.address[d] != AddressMode::kClamp) why = "linear filtering with an address mode other than clamp";
  if (!why.empty())
    refuse(x, in, l, ErrorKind::kUnsupported, fmt::format("tex: unsupported on a mipmapped texture ({} levels): {}", im.levels, why));
}

/// tex.level on a mipmapped texture (check_mip has passed), lane l: the level of detail is the
/// operand plus the bias, clamped to [min_lod, max_lod] and to the levels, in 8 fractional bits
/// (truncated); point mipmap filtering takes the nearest level (a fraction of 1/2 the next),
/// linear filtering both levels, the upper one with a share of the fraction (H200).
void mip_fetch(Ctx& x, const Inst& in, unsigned l, const TexBits& b, const TexObject& t, TexRecords& rec,
               std::uint32_t (&result)[4][kLanes]) {
  const Sampler& s = t.sampler;
  const auto top = static_cast<float>(t.mip.size() - 1);
  float lod = coord_f(x, in.d, l) + s.mip_bias;
  lod = std::min(std::max(lod, s.min_lod), s.max_lod);  // NaN stays NaN, then reads level 0
  lod = std::min(std::max(lod, 0.0f), top);
  if (!(lod >= 0.0f)) lod = 0.0f;
  const auto fixed = static_cast<std::uint32_t>(std::floor(static_cast<double>(lod) * 256.0));
  std::uint32_t level[2] = {fixed >> 8, (fixed >> 8) + 1}, share[2] = {256 - (fixed & 255u), fixed & 255u};
  if (s.mip_filter == FilterMode::kPoint) {
    level[0] += share[1] >= 128 ? 1 : 0;
    share[0] = 256;
    share[1] = 0;
  }
  const unsigned dims = cube(b.geom) ? 2 : geom_dims(b.geom);
  const unsigned first = layered(b.geom) ? 1 : 0;
  const std::uint32_t coord[4] = {in.a, in.b, in.c, in.e};
  std::uint32_t slice = 0;
  if (layered(b.geom))  // clamped as an unsigned number, as for one level
    slice = static_cast<std::uint32_t>(std::min<std::uint64_t>(static_cast<std::uint32_t>(coord_i(x, coord[0], l)), t.image.layers - 1));
  // Normalized coordinates, scaled by each level's size below; a cubemap direction becomes its
  // face (the slice) and the face's normalized coordinates (texture.cpp's cube_face)
  double u[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d) u[d] = coord_f(x, coord[first + d], l);
  if (cube(b.geom)) {
    unsigned face = 0;
    float fs = 0, ft = 0;
    try {
      cube_face(coord_f(x, coord[0], l), coord_f(x, coord[1], l), coord_f(x, coord[2], l), face, fs, ft);
    } catch (const Error& e) {
      refuse(x, in, l, e.kind(), fmt::format("tex: unsupported: {}", e.what()));
    }
    u[0] = fs;
    u[1] = ft;
    slice = face;
  }
  double acc[4] = {0, 0, 0, 0};
  bool is_float = returns_float(t);
  const bool point = s.filter == FilterMode::kPoint && s.mip_filter == FilterMode::kPoint;
  for (unsigned k = 0; k < 2; ++k) {
    if (share[k] == 0) continue;
    const Image& im = t.mip[level[k]];
    const double depth = im.depth != 0 ? im.depth : 1;
    const Footprint f = mip_footprint(t, im, dims, u[0] * im.width, u[1] * im.height, u[2] * depth, slice,
                                      s.filter == FilterMode::kLinear, share[k]);
    const std::uint8_t* host = image_host(x, in, l, im);
    const ImageAddressing addressing(im);
    for (std::uint32_t n = 0; n < f.count; ++n) {
      std::array<std::uint32_t, 4> v;
      if (f.texel[n][0] < 0) {
        v = border_texel(t);
      } else {
        const std::uint64_t off = addressing.offset(static_cast<std::uint32_t>(f.texel[n][0]),
                                                    static_cast<std::uint32_t>(f.texel[n][1]),
                                                    static_cast<std::uint32_t>(f.texel[n][2]));
        if (x.sink != nullptr) {
          rec.mask[8 * k + n] |= 1u << l;
          rec.addr[8 * k + n][l] = im.base + off;
        }
        v = fetch_texel(t, host + off, is_float);
      }
      if (point) {
        for (unsigned ch = 0; ch < 4; ++ch) result[ch][l] = v[ch];
        return;
      }
      for (unsigned ch = 0; ch < 4; ++ch) acc[ch] += static_cast<double>(f.weight[n]) * std::bit_cast<float>(v[ch]);
    }
  }
  for (unsigned ch = 0; ch < 4; ++ch) result[ch][l] = std::bit_cast<std::uint32_t>(static_cast<float>(acc[ch]));
}

/// tex and tld4.
template <bool Gather>
void exec_tex(const Inst& in, Ctx& x, std::uint32_t m) {
  const TexBits b = TexBits::unpack(in.aux);
  std::uint32_t result[4][kLanes];
  TexRecords rec;
  const std::uint32_t coord[4] = {in.a, in.b, in.c, in.e};
  const bool trace = x.sink != nullptr;
  HandleCache cache;
  for_lanes(m, [&](unsigned l) {
    if (cache.object == nullptr || x.reg(in.aux2)[l] != cache.handle) {
      cache.handle = x.reg(in.aux2)[l];
      cache.object = &object_of(x, in, l, TexObject::Kind::kTexture);
      cache.host = image_host(x, in, l, cache.object->image);
      cache.addressing = ImageAddressing(cache.object->image);
      cache.is_float = returns_float(*cache.object);
      const Image& ci = cache.object->image;
      const Sampler& cs = cache.object->sampler;
      cache.point_f32 = ci.format.kind == ChannelKind::kFloat && ci.format.bits == 32 && cs.filter == FilterMode::kPoint &&
                        ci.layout != ImageLayout::kLinear && ci.levels == 1;
      (void)cs;
      if (ci.levels > 1) check_mip(x, in, l, b, *cache.object, Gather);
      if (ci.layout != ImageLayout::kLinear)
        if (const std::string why = geometry_mismatch(b.geom, ci); !why.empty())
          refuse(x, in, l, ErrorKind::kUnsupported, "tex: unsupported: " + why);
    }
    const TexObject& t = *cache.object;
    const Image& im = t.image;
    rec.width = static_cast<std::uint8_t>(im.format.bytes());
    if (!Gather && !t.mip.empty()) {
      mip_fetch(x, in, l, b, t, rec, result);
      return;
    }
    if (!Gather && cache.point_f32 && b.geom == TexGeom::k2d && !b.int_coords) {
      // Point sampling of a 2-D float texture: the general rule below, without its generality.
      double cx = coord_f(x, coord[0], l), cy = coord_f(x, coord[1], l);
      if (t.sampler.normalized_coords) {  // exact: the H100 floors the unrounded product
        cx *= static_cast<double>(im.width);
        cy *= static_cast<double>(im.height);
      }
      const std::int64_t i = address_index(effective_address(t.sampler, 0), floor_index(cx), im.width);
      const std::int64_t j = address_index(effective_address(t.sampler, 1), floor_index(cy), im.height);
      if (i < 0 || j < 0) {
        const auto v = border_texel(t);
        for (unsigned ch = 0; ch < 4; ++ch) result[ch][l] = v[ch];
        return;
      }
      const std::uint64_t off = cache.addressing.offset(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), 0);
      std::uint32_t v[4] = {0, 0, 0, 0};  // missing channels read 0 (H100)
      const std::uint8_t* p = cache.host + off;
      switch (im.format.channels) {
        case 1: std::memcpy(v, p, 4); break;
        case 2: std::memcpy(v, p, 8); break;
        default: std::memcpy(v, p, 16); break;
      }
      for (unsigned ch = 0; ch < 4; ++ch) result[ch][l] = v[ch];
      if (trace) {
        rec.mask[0] |= 1u << l;
        rec.addr[0][l] = im.base + off;
      }
      return;
    }
    try {
      Footprint f;
      bool linear_resource_oob = false;
      if (im.layout == ImageLayout::kLinear) {
        if (b.geom != TexGeom::k1d || !b.int_coords || Gather)
          fail(ErrorKind::kUnsupported, "a linear-memory texture read other than by tex.1d with integer coordinates (tex1Dfetch)");
        // Linear memory: no address modes; an index outside the texture reads 0.
        const std::int32_t i = coord_i(x, coord[0], l);
        f.count = 1;
        f.weight[0] = 1.0f;
        f.texel[0] = {i, 0, 0};
        linear_resource_oob = i < 0 || static_cast<std::uint32_t>(i) >= im.width;
      } else {
        const unsigned first = layered(b.geom) ? 1 : 0;
        std::uint32_t slice = 0;
        if (layered(b.geom)) {
          const std::int64_t count = cube(b.geom) ? im.layers / 6 : im.layers;
          // the layer is clamped as an unsigned number: -1 reads the last layer (H100)
          slice = static_cast<std::uint32_t>(
              std::min<std::uint64_t>(static_cast<std::uint32_t>(coord_i(x, coord[0], l)), static_cast<std::uint64_t>(count - 1)));
        }
        const unsigned dims = cube(b.geom) ? 2 : geom_dims(b.geom);
        double c[3] = {0, 0, 0};
        for (unsigned d = 0; d < (cube(b.geom) ? 3u : dims); ++d)
          c[d] = b.int_coords ? static_cast<double>(coord_i(x, coord[first + d], l)) : coord_f(x, coord[first + d], l);
        bool normalized = t.sampler.normalized_coords && !b.int_coords;
        if (cube(b.geom)) {
          unsigned face = 0;
          float s = 0, tt = 0;
          cube_face(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]), face, s, tt);
          c[0] = s;
          c[1] = tt;
          slice = slice * 6 + face;
          normalized = true;
        }
        const double size[3] = {static_cast<double>(im.width), static_cast<double>(im.height), static_cast<double>(im.depth)};
        if (normalized)
          for (unsigned d = 0; d < dims; ++d) c[d] *= size[d];
        const TexObject* use = &t;
        TexObject eff;
        if (cube(b.geom) || b.int_coords) {
          eff = t;
          use = &eff;
          eff.sampler.normalized_coords = cube(b.geom);
        }
        if (b.int_coords)  // integer coordinates address texels (the centre of texel i); never filtered
          for (unsigned d = 0; d < dims; ++d) c[d] += 0.5;
        const bool linear = !b.int_coords && t.sampler.filter == FilterMode::kLinear;
        if (Gather) {
          if (b.geom != TexGeom::k2d && b.geom != TexGeom::kA2d)
            fail(ErrorKind::kUnsupported, "tld4 on a .{} texture", to_string(b.geom));
          f = gather_footprint(*use, c[0], c[1], slice);
        } else {
          if (linear && cube(b.geom)) fail(ErrorKind::kUnsupported, "linear filtering of a cubemap (not documented across faces)");
          if (linear && !cache.is_float) fail(ErrorKind::kUnsupported, "linear filtering of a texture that returns integers");
          f = footprint(*use, dims, c[0], c[1], c[2], slice, linear);
        }
      }
      const std::uint8_t* host = cache.host;
      double acc[4] = {0, 0, 0, 0};
      std::array<std::uint32_t, 4> point{};
      bool is_float = cache.is_float;
      const bool int_filter = !Gather && f.count > 1 && filters_integers(t);
      for (std::uint32_t k = 0; k < f.count; ++k) {
        std::array<std::uint32_t, 4> v;
        if (linear_resource_oob) {
          v = {0, 0, 0, 0};
        } else if (f.texel[k][0] < 0) {
          if (int_filter) {
            const auto bv = filter_border(t);
            for (unsigned ch = 0; ch < 4; ++ch) acc[ch] += f.weight[k] * bv[ch];
            continue;
          }
          v = border_texel(t);
        } else {
          const std::uint64_t off = cache.addressing.offset(static_cast<std::uint32_t>(f.texel[k][0]),
                                                            static_cast<std::uint32_t>(f.texel[k][1]),
                                                            static_cast<std::uint32_t>(f.texel[k][2]));
          if (trace) {
            rec.mask[k] |= 1u << l;
            rec.addr[k][l] = im.base + off;
          }
          if (int_filter) {
            const auto tv = filter_texel(t, host + off);
            for (unsigned ch = 0; ch < 4; ++ch) acc[ch] += f.weight[k] * tv[ch];
            continue;
          }
          v = fetch_texel(t, host + off, is_float);
        }
        if (Gather) {
          result[k][l] = v[b.comp];
        } else if (f.count == 1) {
          point = v;
        } else {
          for (unsigned ch = 0; ch < 4; ++ch) acc[ch] += static_cast<double>(f.weight[k]) * std::bit_cast<float>(v[ch]);
        }
      }
      if (!Gather) {
        const bool half = im.format.kind == ChannelKind::kFloat && im.format.bits == 16;
        for (unsigned ch = 0; ch < 4; ++ch) {
          std::uint32_t r;
          if (f.count == 1) r = point[ch];
          else if (int_filter) r = finish_filter(t, ch, acc[ch]);
          else if (half) r = std::bit_cast<std::uint32_t>(f16_to_f32(f32_to_f16(static_cast<float>(acc[ch]))));
          else r = std::bit_cast<std::uint32_t>(static_cast<float>(acc[ch]));
          result[ch][l] = r;
        }
      }
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kUnsupported) throw;
      refuse(x, in, l, ErrorKind::kUnsupported, fmt::format("{}: unsupported: {}", Gather ? "tld4" : "tex", e.what()));
    }
  });
  for (unsigned ch = 0; ch < 4; ++ch) {
    std::uint64_t* d = x.reg(in.v[ch]);
    for_lanes(m, [&](unsigned l) { d[l] = result[ch][l]; });
  }
  if (trace) {
    rec.texel_fetch = b.int_coords && !Gather;
    rec.emit(x, in, Space::kTexture, Op::kLoad);
  }
}

/// txq and suq.
template <bool Surface>
void exec_query(const Inst& in, Ctx& x, std::uint32_t m) {
  const TexBits b = TexBits::unpack(in.aux);
  std::uint32_t out[kLanes];
  for_lanes(m, [&](unsigned l) {
    const TexObject& t = object_of(x, in, l, Surface ? TexObject::Kind::kSurface : TexObject::Kind::kTexture);
    const Image& im = t.image;
    if (in.b != kNoSlot && x.reg(in.b)[l] != 0)
      refuse(x, in, l, ErrorKind::kUnsupported, "txq.level of a level other than 0 (only level 0 is modelled)");
    using Q = ptx::TexQuery;
    switch (b.query) {
      case Q::kWidth: out[l] = im.width; break;
      case Q::kHeight: out[l] = im.height; break;
      case Q::kDepth: out[l] = im.layers == 0 && im.depth != 0 ? im.depth : 1; break;
      case Q::kArraySize: out[l] = im.cubemap ? im.layers / 6 : im.layers; break;
      case Q::kNumMipmapLevels: out[l] = im.levels; break;
      case Q::kNormalizedCoords: out[l] = t.sampler.normalized_coords ? 1 : 0; break;
      default:
        refuse(x, in, l, ErrorKind::kUnsupported,
               "this texture/surface query (its encoding of formats and modes is not documented for CUDA objects)");
    }
  });
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) { d[l] = out[l]; });
}

/// suld, sust, sured: where each lane's element lies, after the out-of-range rule. Returns false
/// for a lane whose access is dropped (.zero).
bool surface_place(const Ctx& x, const Inst& in, unsigned l, const TexBits& b, const TexObject& s,
                   std::uint64_t& off, unsigned size) {
  const Image& im = s.image;
  const std::uint32_t coord[4] = {in.a, in.b, in.c, in.e};
  const unsigned first = layered(b.geom) ? 1 : 0;
  const std::uint64_t texel = im.format.bytes();
  std::int64_t xb = coord_i(x, coord[first], l);
  if (b.formatted) xb *= static_cast<std::int64_t>(texel);  // .p: x counts elements
  std::int64_t y = geom_dims(b.geom) >= 2 ? coord_i(x, coord[first + 1], l) : 0;
  std::int64_t z = b.geom == TexGeom::k3d ? coord_i(x, coord[2], l) : layered(b.geom) ? coord_i(x, coord[0], l) : 0;
  if (const std::string why = geometry_mismatch(b.geom, im); !why.empty())
    refuse(x, in, l, ErrorKind::kUnsupported, "surface access: " + why);
  if (xb % size != 0) {
    refuse(x, in, l, ErrorKind::kMisaligned,
           fmt::format("surface access of {} bytes at byte x = {}: not a multiple of its size", size, xb));
  }
  const std::int64_t wbytes = static_cast<std::int64_t>(im.width * texel), h = im.height, slices = im.slices();
  const bool inside = xb >= 0 && xb + size <= wbytes && y >= 0 && y < h && z >= 0 && z < slices;
  if (!inside) {
    switch (b.clamp) {
      case ptx::SurfClamp::kTrap:
        refuse(x, in, l, ErrorKind::kOutOfBounds,
               fmt::format("surface access out of range (.trap): x = {} bytes, y = {}, z = {} on a {}x{} surface of {} slices "
                           "({}-byte texels)", xb, y, z, im.width, im.height, slices, texel));
      case ptx::SurfClamp::kZero: return false;
      case ptx::SurfClamp::kClamp:
        xb = std::clamp<std::int64_t>(xb, 0, wbytes - size) / size * size;
        y = std::clamp<std::int64_t>(y, 0, h - 1);
        z = std::clamp<std::int64_t>(z, 0, slices - 1);
        break;
    }
  }
  const auto xt = static_cast<std::uint32_t>(static_cast<std::uint64_t>(xb) / texel);
  off = image_offset(im, xt, static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(z)) + static_cast<std::uint64_t>(xb) % texel;
  return true;
}

enum class SurfOp : std::uint8_t { kLoad, kStore, kReduce };

template <SurfOp O>
void exec_surface(const Inst& in, Ctx& x, std::uint32_t m) {
  const TexBits b = TexBits::unpack(in.aux);
  const unsigned elem = in.width, n = in.vec;
  TexRecords rec;
  std::uint8_t* where[kLanes] = {};
  std::uint32_t live = 0;
  const TexObject* first = nullptr;
  HandleCache cache;
  for_lanes(m, [&](unsigned l) {
    if (cache.object == nullptr || x.reg(in.aux2)[l] != cache.handle) {
      cache.handle = x.reg(in.aux2)[l];
      cache.object = &object_of(x, in, l, TexObject::Kind::kSurface);
      cache.host = image_host(x, in, l, cache.object->image);
    }
    const TexObject& s = *cache.object;
    if (first == nullptr) first = &s;
    const unsigned size = b.formatted ? s.image.format.bytes() : elem * n;
    rec.width = static_cast<std::uint8_t>(size);
    std::uint64_t off = 0;
    if (!surface_place(x, in, l, b, s, off, size)) return;
    where[l] = const_cast<std::uint8_t*>(cache.host) + off;
    rec.addr[0][l] = s.image.base + off;
    live |= 1u << l;
  });
  if constexpr (O == SurfOp::kLoad) {
    for (unsigned i = 0; i < n; ++i) {
      std::uint64_t* d = x.reg(in.v[i]);
      for_lanes(m, [&](unsigned l) {
        std::uint64_t v = 0;
        if (where[l] != nullptr) std::memcpy(&v, where[l] + i * elem, elem);
        d[l] = v;
      });
    }
  } else if constexpr (O == SurfOp::kStore) {
    for_lanes(live, [&](unsigned l) {
      if (b.formatted) {
        const TexelFormat& f = object_of(x, in, l, TexObject::Kind::kSurface).image.format;
        for (unsigned ch = 0; ch < f.channels; ++ch) {
          const std::uint32_t v = ch < n ? pack_channel(f, static_cast<std::uint32_t>(x.reg(in.v[ch])[l])) : 0;
          std::memcpy(where[l] + ch * (f.bits / 8), &v, f.bits / 8);
        }
        return;
      }
      for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t v = x.reg(in.v[i])[l];
        std::memcpy(where[l] + i * elem, &v, elem);
      }
    });
  } else {
    for_lanes(live, [&](unsigned l) {  // lane order, as atomics
      const std::uint64_t a = x.reg(in.d)[l];
      std::uint64_t old = 0;
      std::memcpy(&old, where[l], elem);
      const std::uint64_t mask = elem == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * elem)) - 1;
      auto sx = [&](std::uint64_t v) {
        return elem == 8 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(static_cast<std::int32_t>(v));
      };
      std::uint64_t r = old;
      switch (b.reduce) {
        case ptx::ReduceOp::kAdd: r = old + a; break;
        case ptx::ReduceOp::kAnd: r = old & a; break;
        case ptx::ReduceOp::kOr: r = old | a; break;
        case ptx::ReduceOp::kMin: r = b.is_signed ? (sx(a) < sx(old) ? a : old) : ((a & mask) < (old & mask) ? a : old); break;
        case ptx::ReduceOp::kMax: r = b.is_signed ? (sx(a) > sx(old) ? a : old) : ((a & mask) > (old & mask) ? a : old); break;
        default: break;
      }
      r &= mask;
      std::memcpy(where[l], &r, elem);
    });
  }
  if (x.sink != nullptr && live != 0) {
    rec.mask[0] = live;
    rec.emit(x, in, Space::kSurface, O == SurfOp::kLoad ? Op::kLoad : O == SurfOp::kStore ? Op::kStore : Op::kReduction);
  }
}

/// The handle of a texture/surface address `[%rd, ...]`: the register, or for `[texref, ...]` the
/// .texref/.surfref variable, whose value is its reference's handle (exec/api.cpp).
ptx::Operand handle_operand(const ptx::Operand& addr) {
  ptx::Operand r;
  r.pos = addr.pos;
  if (addr.addr_base == ptx::AddressBase::kSymbol) {
    r.kind = ptx::OperandKind::kSymbol;
    r.symbol = addr.symbol;
    return r;
  }
  r.kind = ptx::OperandKind::kReg;
  r.reg = addr.reg;
  return r;
}

/// The coordinate slots: a, b, c, e in PTX order (layer first for layered geometries).
void decode_coords(DecodeCtx& dc, const ptx::Instruction& ins, const ptx::Operand& addr, Type coord_type, Inst& out) {
  std::uint32_t* slots[4] = {&out.a, &out.b, &out.c, &out.e};
  const bool lay = layered(ins.tex_geom);
  for (std::size_t k = 0; k < addr.elements.size() && k < 4; ++k)
    *slots[k] = dc.src(addr.elements[k], lay && k == 0 ? Type::kS32 : coord_type);
  out.aux2 = dc.src(handle_operand(addr), Type::kU64);
}

/// The data registers: a vector or one register into v[].
void decode_data(DecodeCtx& dc, const ptx::Operand& o, Type t, bool dest, Inst& out) {
  if (o.kind == ptx::OperandKind::kVector) {
    for (std::size_t k = 0; k < o.elements.size() && k < 4; ++k)
      out.v[k] = dest ? dc.dst(o.elements[k]) : dc.src(o.elements[k], t);
  } else {
    out.v[0] = dest ? dc.dst(o) : dc.src(o, t);
  }
}

}  // namespace

/// istypep.texref / .surfref: whether the handle is a texture (surface) object or reference
/// (H200: true for the matching kind only, tests/hw/data/h200/texref); .samplerref: no handle is a
/// sampler (separate samplers are not supported).
template <TexObject::Kind K, bool kSampler>
void exec_istypep(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const TexObject* o = kSampler || x.objects == nullptr ? nullptr : x.objects->find(a[l]);
    d[l] = o != nullptr && o->kind == K ? 1 : 0;
  });
}

bool decode_tex(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  TexBits b;
  b.geom = ins.tex_geom;
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kIstypep:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], Type::kU64);
      out.fn = ins.opaque_type == ptx::OpaqueKind::kSurfRef ? &exec_istypep<TexObject::Kind::kSurface, false>
               : ins.opaque_type == ptx::OpaqueKind::kTexRef ? &exec_istypep<TexObject::Kind::kTexture, false>
                                                              : &exec_istypep<TexObject::Kind::kTexture, true>;
      return true;
    case Opcode::kTex:
    case Opcode::kTld4: {
      if (ins.type != Type::kF32 && ins.type != Type::kS32 && ins.type != Type::kU32)
        dc.unsupported("texture results other than .f32/.s32/.u32");
      if (ins.src_type != Type::kF32 && ins.src_type != Type::kS32) dc.unsupported("coordinates other than .f32/.s32");
      if (ins.op == Opcode::kTld4 && ins.src_type != Type::kF32) dc.unsupported("tld4 with integer coordinates");
      b.int_coords = ins.src_type == Type::kS32;
      b.comp = ins.tex_comp;
      decode_data(dc, ops[0], ins.type, true, out);
      decode_coords(dc, ins, ops[1], ins.src_type, out);
      // .level: the LOD operand (textures without mipmaps sample their one level); .grad's
      // gradients are not read (mipmapped textures refuse tex.grad when fetched).
      b.mode = ins.op == Opcode::kTex ? ins.tex_mode : ptx::TexMode::kNone;
      if (b.mode == ptx::TexMode::kLevel) out.d = dc.src(ops[2], Type::kF32);
      out.aux = b.pack();
      out.fn = ins.op == Opcode::kTex ? &exec_tex<false> : &exec_tex<true>;
      return true;
    }
    case Opcode::kTxq:
    case Opcode::kSuq:
      if (type_bits(ins.type) != 32) dc.unsupported("a query result other than .b32");
      b.query = ins.tex_query;
      out.d = dc.dst(ops[0]);
      out.aux2 = dc.src(handle_operand(ops[1]), Type::kU64);
      if (ops.size() == 3) out.b = dc.src(ops[2], Type::kS32);
      out.aux = b.pack();
      out.fn = ins.op == Opcode::kTxq ? &exec_query<false> : &exec_query<true>;
      return true;
    case Opcode::kSuld:
    case Opcode::kSust:
    case Opcode::kSured: {
      if (ins.tex_geom == TexGeom::kCube || ins.tex_geom == TexGeom::kACube)
        dc.unsupported("cubemap surfaces (use .a2d with the face as the layer)");
      if (ins.surf_formatted && ins.op != Opcode::kSust) dc.unsupported("formatted (.p) surface loads and reductions");
      const unsigned bits = type_bits(ins.type);
      if (bits != 8 && bits != 16 && bits != 32 && bits != 64) dc.unsupported("this element type");
      if (ins.surf_formatted && bits != 32) dc.unsupported("sust.p with elements other than 32 bits");
      b.clamp = ins.surf_clamp;
      b.formatted = ins.surf_formatted;
      out.width = static_cast<std::uint8_t>(bits / 8);
      out.vec = static_cast<std::uint8_t>(ins.vec);
      if (out.width * ins.vec > 16) dc.unsupported("more than 16 bytes per access");
      const ptx::Operand& addr = ins.op == Opcode::kSuld ? ops[1] : ops[0];
      decode_coords(dc, ins, addr, Type::kS32, out);
      if (ins.op == Opcode::kSured) {
        b.reduce = ins.reduce;
        b.is_signed = ins.type == Type::kS32 || ins.type == Type::kS64;
        if (b.reduce != ptx::ReduceOp::kAdd && b.reduce != ptx::ReduceOp::kMin && b.reduce != ptx::ReduceOp::kMax &&
            b.reduce != ptx::ReduceOp::kAnd && b.reduce != ptx::ReduceOp::kOr)
          dc.unsupported("sured takes .add, .min, .max, .and or .or");
        out.d = dc.src(ops[1], ins.type);
        out.fn = &exec_surface<SurfOp::kReduce>;
      } else if (ins.op == Opcode::kSuld) {
        decode_data(dc, ops[0], ins.type, true, out);
        out.fn = &exec_surface<SurfOp::kLoad>;
      } else {
        decode_data(dc, ops[1], ins.type, false, out);
        out.fn = &exec_surface<SurfOp::kStore>;
      }
      out.aux = b.pack();
      return true;
    }
    default: return false;
  }
}

}  // namespace warpscope::exec
