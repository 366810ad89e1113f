// Textures and surfaces: results checked against this file's own reference of the CUDA
// Programming Guide's texture fetching rules (floor for point sampling; xB = x - 0.5 and weights
// in 8 fractional bits for linear filtering; wrap, clamp, mirror and border on texel indices),
// the texel layouts, the records, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "exec_test_util.hpp"
#include "warpscope/texture.hpp"

namespace warpscope::exec::test {
namespace {

struct float4 {
  float x, y, z, w;
};

/// The reference: one channel of a W x H float image.
struct Ref {
  std::vector<float> v;
  int w = 0, h = 0;
  AddressMode mode[2] = {AddressMode::kClamp, AddressMode::kClamp};
  float border = 0;

  static long index(AddressMode m, long i, long n, bool& out) {
    out = false;
    switch (m) {
      case AddressMode::kClamp: return std::min(std::max(i, 0L), n - 1);
      case AddressMode::kWrap: return ((i % n) + n) % n;
      case AddressMode::kMirror: {
        const long k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
      }
      case AddressMode::kBorder:
        out = i < 0 || i >= n;
        return i;
    }
    return 0;
  }
  float texel(long i, long j) const {
    bool oi = false, oj = false;
    const long a = index(mode[0], i, w, oi), b = index(mode[1], j, h, oj);
    return oi || oj ? border : v[b * w + a];
  }
  float point(double x, double y) const { return texel(static_cast<long>(std::floor(x)), static_cast<long>(std::floor(y))); }
  float linear(double x, double y) const {
    const float xb = static_cast<float>(x - 0.5), yb = static_cast<float>(y - 0.5);
    const long i = static_cast<long>(std::floor(xb)), j = static_cast<long>(std::floor(yb));
    const float a = std::floor((xb - std::floor(xb)) * 256.0f + 0.5f) / 256.0f;  // ties up (H100)
    const float b = std::floor((yb - std::floor(yb)) * 256.0f + 0.5f) / 256.0f;
    return (1 - a) * (1 - b) * texel(i, j) + a * (1 - b) * texel(i + 1, j) + (1 - a) * b * texel(i, j + 1) +
           a * b * texel(i + 1, j + 1);
  }
};

struct Fixture {
  Device dev;
  Module mod;
  explicit Fixture(const std::string& ptx) : mod(dev.load_ptx(ptx, "textures.ptx")) {}

  /// A W x H one-channel float CUDA array (block-linear) filled with `values`.
  Image array2d(int w, int h, const std::vector<float>& values, TexelFormat f = {}) {
    Image im;
    im.format = f;
    im.width = static_cast<std::uint32_t>(w);
    im.height = static_cast<std::uint32_t>(h);
    make_block_linear(im);
    im.base = dev.malloc(image_bytes(im));
    Device::ImageBox box;
    box.width_bytes = std::uint64_t(w) * f.bytes();
    box.height = static_cast<std::uint32_t>(h);
    dev.copy_image_to_device(im, box, values.data(), box.width_bytes, box.width_bytes * h);
    return im;
  }

  std::vector<float4> fetch2d(std::uint64_t tex, const std::vector<float>& x, const std::vector<float>& y) {
    const int n = static_cast<int>(x.size());
    const DevicePtr dx = upload(dev, x), dy = upload(dev, y), out = dev.malloc(n * sizeof(float4));
    const KernelArg args[] = {arg(tex), arg(dx), arg(dy), arg(out), arg(n)};
    dev.launch(mod, "_Z8tex2d_f4yPKfS0_P6float4i", {1, 1, 1}, {static_cast<std::uint32_t>(n), 1, 1}, args);
    return download<float4>(dev, out, n);
  }
};

/// Coordinates at texel centres, between texels and outside the image, in texel units.
void coordinates(int w, int h, std::vector<float>& x, std::vector<float>& y) {
  const float xs[] = {0.5f, 1.5f, 1.0f, 2.25f, 3.9f, -0.7f, 4.6f, 6.3f, -3.2f, 2.0f / 3.0f, 3.75f, 0.1f};
  const float ys[] = {0.5f, 2.5f, 1.0f, 1.7f, -0.4f, 2.0f, 3.9f, -2.5f, 5.1f, 1.3f, 0.9f, 2.2f};
  for (float a : xs)
    for (float b : ys) {
      x.push_back(a);
      y.push_back(b);
    }
  (void)w;
  (void)h;
}

TEST(Texture, EveryAddressModeAndFilterMatchesTheReference) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const int w = 4, h = 3;
  std::vector<float> values(w * h);
  for (int k = 0; k < w * h; ++k) values[k] = static_cast<float>(k * k) * 0.5f - 3.0f;
  const Image im = fx.array2d(w, h, values);
  for (bool normalized : {false, true})
    for (AddressMode mode : {AddressMode::kWrap, AddressMode::kClamp, AddressMode::kMirror, AddressMode::kBorder})
      for (FilterMode filter : {FilterMode::kPoint, FilterMode::kLinear}) {
        // With unnormalized coordinates wrap and mirror act as clamp (the H100's samples).
        const AddressMode ref_mode =
            !normalized && (mode == AddressMode::kWrap || mode == AddressMode::kMirror) ? AddressMode::kClamp : mode;
        Sampler s;
        s.address = {mode, mode, mode};
        s.filter = filter;
        s.normalized_coords = normalized;
        s.border = {7.5f, 0, 0, 0};
        const std::uint64_t t = fx.dev.create_texture(im, s);
        std::vector<float> x, y;
        coordinates(w, h, x, y);
        std::vector<float> xn = x, yn = y;
        if (normalized)
          for (std::size_t k = 0; k < x.size(); ++k) {
            xn[k] = x[k] / w;
            yn[k] = y[k] / h;
          }
        const auto got = fx.fetch2d(t, xn, yn);
        Ref ref{values, w, h, {ref_mode, ref_mode}, 7.5f};
        for (std::size_t k = 0; k < x.size(); ++k) {
          // The reference scales the coordinates the way the texture unit does (exactly: the
          // unrounded product decides the texel).
          const double sx = normalized ? double{xn[k]} * w : x[k], sy = normalized ? double{yn[k]} * h : y[k];
          const float want = filter == FilterMode::kPoint ? ref.point(sx, sy) : ref.linear(sx, sy);
          EXPECT_FLOAT_EQ(got[k].x, want) << "normalized " << normalized << " mode " << int(mode) << " filter "
                                          << int(filter) << " at (" << x[k] << ", " << y[k] << ")";
          if (mode != AddressMode::kBorder) {
            EXPECT_EQ(got[k].w, 0.0f);  // a missing 4th channel reads 0 (H100)
          }
        }
        fx.dev.destroy_texture(t);
      }
}

TEST(Texture, PitchLinearAndLinearMemoryUseTheRealAddresses) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const int w = 8, h = 4, pitch = 64;
  std::vector<float> rows(pitch / 4 * h, -1.0f);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) rows[j * (pitch / 4) + i] = static_cast<float>(10 * j + i);
  Image im;
  im.layout = ImageLayout::kPitch;
  im.width = w;
  im.height = h;
  im.pitch = pitch;
  im.base = upload(fx.dev, rows);
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  const std::uint64_t t = fx.dev.create_texture(im, s);
  RecordingSink sink;
  fx.dev.set_access_sink(&sink);
  const auto got = fx.fetch2d(t, {0.5f, 7.5f, 3.2f, 9.0f}, {0.5f, 3.5f, 2.9f, 1.1f});
  EXPECT_EQ(got[0].x, 0.0f);
  EXPECT_EQ(got[1].x, 37.0f);
  EXPECT_EQ(got[2].x, 23.0f);
  EXPECT_EQ(got[3].x, 17.0f);  // clamped to x = 7
  bool seen = false;
  for (const WarpAccess& a : sink.records) {
    if (a.space != Space::kTexture) continue;
    seen = true;
    EXPECT_EQ(a.part, 0);
    EXPECT_EQ(a.width, 4);
    EXPECT_EQ(a.addr[2], im.base + 2 * pitch + 3 * 4);
    EXPECT_EQ(a.addr[3], im.base + 1 * pitch + 7 * 4);
  }
  EXPECT_TRUE(seen);
  fx.dev.set_access_sink(nullptr);

  // Linear memory (tex1Dfetch): an index outside the buffer reads 0.
  Image lin;
  lin.width = 8;
  lin.base = im.base;
  const std::uint64_t tl = fx.dev.create_texture(lin, s);
  const std::vector<int> idx = {0, 5, 7, 8, -1};
  const DevicePtr di = upload(fx.dev, idx), out = fx.dev.malloc(5 * sizeof(float));
  const int n = 5;
  const KernelArg args[] = {arg(tl), arg(di), arg(out), arg(n)};
  fx.dev.launch(fx.mod, "_Z11tex1d_fetchyPKiPfi", {1, 1, 1}, {5, 1, 1}, args);
  EXPECT_EQ(download<float>(fx.dev, out, 5), (std::vector<float>{0, 5, 7, 0, 0}));
}

TEST(Texture, LinearFilteringRecordsEachTexelOfTheFootprint) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const Image im = fx.array2d(4, 4, std::vector<float>(16, 1.0f));
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  s.filter = FilterMode::kLinear;
  const std::uint64_t t = fx.dev.create_texture(im, s);
  RecordingSink sink;
  fx.dev.set_access_sink(&sink);
  fx.fetch2d(t, {1.3f, 2.0f}, {1.7f, 2.0f});
  std::vector<const WarpAccess*> tex;
  for (const WarpAccess& a : sink.records)
    if (a.space == Space::kTexture) tex.push_back(&a);
  ASSERT_EQ(tex.size(), 4u);  // the 2x2 footprint, one record per corner
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(tex[k]->part, k);
  // Corner (i, j) of lane 0: i = floor(0.8) = 0, j = floor(1.2) = 1 -> the block-linear offset.
  EXPECT_EQ(tex[0]->addr[0], im.base + image_offset(im, 0, 1, 0));
  EXPECT_EQ(tex[3]->addr[0], im.base + image_offset(im, 1, 2, 0));
}

TEST(Texture, BlockLinearLayoutIsTheDocumentedModel) {
  Image im;
  im.format = TexelFormat{1, 32, ChannelKind::kFloat};
  im.width = 100;
  im.height = 40;
  make_block_linear(im);
  EXPECT_EQ(im.block_height, 8u);  // 5 GOB rows -> blocks of 8 GOBs
  // 16-byte x 2-row pieces inside a 64-byte x 8-row GOB.
  EXPECT_EQ(image_offset(im, 0, 0, 0), 0u);
  EXPECT_EQ(image_offset(im, 3, 0, 0), 12u);
  EXPECT_EQ(image_offset(im, 0, 1, 0), 16u);
  EXPECT_EQ(image_offset(im, 4, 0, 0), 32u);
  EXPECT_EQ(image_offset(im, 0, 2, 0), 64u);
  EXPECT_EQ(image_offset(im, 8, 0, 0), 256u);
  EXPECT_EQ(image_offset(im, 16, 0, 0), 8u * 512);  // the next GOB column starts a new block
  EXPECT_EQ(image_offset(im, 0, 8, 0), 512u);        // the next GOB down, in the same block
}

TEST(Texture, NormalizedFloatReadsOfIntegerTexels) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  struct Case {
    TexelFormat f;
    std::vector<std::uint8_t> bytes;
    std::vector<float> want;
  };
  const std::vector<Case> cases = {
      {{1, 8, ChannelKind::kUnsigned}, {0, 1, 128, 255}, {0.0f, 1.0f / 255, 128.0f / 255, 1.0f}},
      {{1, 8, ChannelKind::kSigned}, {0, 1, 0x80, 0x7f}, {0.0f, 1.0f / 127, -1.0f, 1.0f}},
      {{1, 16, ChannelKind::kUnsigned}, {0, 0, 1, 0, 0, 0x80, 0xff, 0xff}, {0.0f, 1.0f / 65535, 32768.0f / 65535, 1.0f}},
  };
  for (const Case& c : cases) {
    Image im;
    im.format = c.f;
    im.width = 4;
    im.height = 1;
    make_block_linear(im);
    im.base = fx.dev.malloc(image_bytes(im));
    Device::ImageBox box;
    box.width_bytes = c.bytes.size();
    fx.dev.copy_image_to_device(im, box, c.bytes.data(), box.width_bytes, box.width_bytes);
    Sampler s;
    s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
    s.read = ReadMode::kNormalizedFloat;
    const auto got = fx.fetch2d(fx.dev.create_texture(im, s), {0.5f, 1.5f, 2.5f, 3.5f}, {0.5f, 0.5f, 0.5f, 0.5f});
    for (int k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(got[k].x, c.want[k]) << int(c.f.bits) << " bits, texel " << k;
  }
}

TEST(Texture, Tld4GathersOneChannelOfTheFootprint) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const int w = 4, h = 4;
  std::vector<float> v(w * h * 4);
  for (int k = 0; k < w * h; ++k)
    for (int ch = 0; ch < 4; ++ch) v[k * 4 + ch] = static_cast<float>(100 * ch + k);
  const Image im = fx.array2d(w, h, v, TexelFormat{4, 32, ChannelKind::kFloat});
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  const std::uint64_t t = fx.dev.create_texture(im, s);
  const std::vector<float> x = {1.2f, 0.1f}, y = {2.7f, 3.9f};
  const DevicePtr dx = upload(fx.dev, x), dy = upload(fx.dev, y), out = fx.dev.malloc(2 * sizeof(float4));
  const int n = 2;
  const char* kernels[4] = {"_Z8gather_ryPKfS0_P6float4i", "_Z8gather_gyPKfS0_P6float4i", "_Z8gather_byPKfS0_P6float4i",
                            "_Z8gather_ayPKfS0_P6float4i"};
  for (int comp : {0, 1, 2, 3}) {  // tld4.r, .g, .b, .a
    const KernelArg args[] = {arg(t), arg(dx), arg(dy), arg(out), arg(n)};
    fx.dev.launch(fx.mod, kernels[comp], {1, 1, 1}, {2, 1, 1}, args);
    const auto got = download<float4>(fx.dev, out, 2);
    for (int k = 0; k < 2; ++k) {
      const long i = static_cast<long>(std::floor(x[k] - 0.5f)), j = static_cast<long>(std::floor(y[k] - 0.5f));
      auto T = [&](long a, long b) {
        a = std::min(std::max(a, 0L), long(w - 1));
        b = std::min(std::max(b, 0L), long(h - 1));
        return v[(b * w + a) * 4 + comp];
      };
      EXPECT_EQ(got[k].x, T(i, j + 1));
      EXPECT_EQ(got[k].y, T(i + 1, j + 1));
      EXPECT_EQ(got[k].z, T(i + 1, j));
      EXPECT_EQ(got[k].w, T(i, j));
    }
  }
}

TEST(Texture, LayeredAnd3dTextures) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  Image im;
  im.width = 2;
  im.height = 2;
  im.depth = 3;
  make_block_linear(im);
  im.base = fx.dev.malloc(image_bytes(im));
  std::vector<float> v(12);
  for (int k = 0; k < 12; ++k) v[k] = static_cast<float>(k);
  Device::ImageBox box;
  box.width_bytes = 8;
  box.height = 2;
  box.slices = 3;
  fx.dev.copy_image_to_device(im, box, v.data(), 8, 16);
  // 3-D copy round trip.
  std::vector<float> back(12, -1);
  fx.dev.copy_image_to_host(back.data(), 8, 16, im, box);
  EXPECT_EQ(back, v);
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  s.filter = FilterMode::kLinear;
  const std::uint64_t t = fx.dev.create_texture(im, s);
  const std::vector<float> x = {0.5f, 1.0f}, y = {0.5f, 1.5f}, z = {2.5f, 1.0f};
  const DevicePtr dx = upload(fx.dev, x), dy = upload(fx.dev, y), dz = upload(fx.dev, z), out = fx.dev.malloc(8);
  const int n = 2;
  const KernelArg args[] = {arg(t), arg(dx), arg(dy), arg(dz), arg(out), arg(n)};
  fx.dev.launch(fx.mod, "_Z7tex3d_fyPKfS0_S0_Pfi", {1, 1, 1}, {2, 1, 1}, args);
  const auto got = download<float>(fx.dev, out, 2);
  EXPECT_FLOAT_EQ(got[0], 8.0f);
  // (1.0, 1.5, 1.0): weights 0.5 between x 0/1 and z 0/1, y = row 1.
  EXPECT_FLOAT_EQ(got[1], 0.25f * (2 + 3 + 6 + 7));

  // Layered: the layer index is clamped.
  Image lay = im;
  lay.depth = 0;
  lay.layers = 3;
  s.filter = FilterMode::kPoint;
  const std::uint64_t tl = fx.dev.create_texture(lay, s);
  const std::vector<int> layer = {2, 7};
  const DevicePtr dl = upload(fx.dev, layer);
  const KernelArg largs[] = {arg(tl), arg(dx), arg(dy), arg(dl), arg(out), arg(n)};
  fx.dev.launch(fx.mod, "_Z13tex2d_layeredyPKfS0_PKiPfi", {1, 1, 1}, {2, 1, 1}, largs);
  EXPECT_EQ(download<float>(fx.dev, out, 2), (std::vector<float>{8.0f, 11.0f}));
}

// Cubemaps (CUDA C++ Programming Guide, "Cubemap Textures"): the direction's major axis picks the
// face (x+ 0, x- 1, y+ 2, y- 3, z+ 4, z- 5) and the face coordinates are ((s/m + 1)/2, (t/m + 1)/2)
// with m the major axis' magnitude and (s, t) = (-z, -y), (z, -y), (x, z), (x, -z), (x, -y), (-x, -y)
// by face. Each face is 2x2; texel (i, j) of face f holds 10 f + 2 j + i, of the second cube 100 more.
TEST(Texture, CubemapFacesAndLayers) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  Image im;
  im.width = 2;
  im.height = 2;
  im.layers = 12;  // two cubes
  im.cubemap = true;
  make_block_linear(im);
  im.base = fx.dev.malloc(image_bytes(im));
  std::vector<float> v(48);
  for (int f = 0; f < 12; ++f)
    for (int k = 0; k < 4; ++k) v[f * 4 + k] = static_cast<float>(f < 6 ? 10 * f + k : 100 + 10 * (f - 6) + k);
  Device::ImageBox box;
  box.width_bytes = 8;
  box.height = 2;
  box.slices = 12;
  fx.dev.copy_image_to_device(im, box, v.data(), 8, 16);
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  // Face coordinates scaled by the size 2, floored:
  //   ( 1,  .5, -.5): x+, s = .5, t = -.5 -> (.75, .25) -> texel (1, 0) -> 1
  //   (-1,  .5, -.5): x-, s = -.5, t = -.5 -> (.25, .25) -> (0, 0) -> 10
  //   (.5,  1,  .5): y+, s = .5, t = .5 -> (.75, .75) -> (1, 1) -> 23
  //   (.5, -1,  .5): y-, s = .5, t = -.5 -> (.75, .25) -> (1, 0) -> 31
  //   (-.5, -.5, 2): z+, m = 2, s = -.25, t = .25 -> (.375, .625) -> (0, 1) -> 42
  //   (.5, .5, -2): z-, m = 2, s = -.25, t = -.25 -> (.375, .375) -> (0, 0) -> 50
  const std::vector<float> x = {1, -1, .5f, .5f, -.5f, .5f}, y = {.5f, .5f, 1, -1, -.5f, .5f},
                           z = {-.5f, -.5f, .5f, .5f, 2, -2};
  const std::vector<float> want = {1, 10, 23, 31, 42, 50};
  const int n = 6;
  const DevicePtr dx = upload(fx.dev, x), dy = upload(fx.dev, y), dz = upload(fx.dev, z), out = fx.dev.malloc(n * 4);
  // The layered cubemap: layer 1 is the second cube (+100); layers are clamped (7 -> 1).
  const std::vector<int> layer = {1, 0, 7, 1, 0, 1};
  const DevicePtr dl = upload(fx.dev, layer);
  const std::uint64_t t = fx.dev.create_texture(im, s);
  const KernelArg largs[] = {arg(t), arg(dx), arg(dy), arg(dz), arg(dl), arg(out), arg(n)};
  fx.dev.launch(fx.mod, "_Z16tex_cube_layeredyPKfS0_S0_PKiPfi", {1, 1, 1}, {6, 1, 1}, largs);
  EXPECT_EQ(download<float>(fx.dev, out, n), (std::vector<float>{101, 10, 123, 131, 42, 150}));
  // One cube (.cube): the first six faces.
  Image one = im;
  one.layers = 6;
  const std::uint64_t t1 = fx.dev.create_texture(one, s);
  const KernelArg args[] = {arg(t1), arg(dx), arg(dy), arg(dz), arg(out), arg(n)};
  fx.dev.launch(fx.mod, "_Z8tex_cubeyPKfS0_S0_Pfi", {1, 1, 1}, {6, 1, 1}, args);
  EXPECT_EQ(download<float>(fx.dev, out, n), want);
  // A .cube fetch from the layered cubemap is a geometry mismatch, refused naming it.
  const KernelArg bad[] = {arg(t), arg(dx), arg(dy), arg(dz), arg(out), arg(n)};
  try {
    fx.dev.launch(fx.mod, "_Z8tex_cubeyPKfS0_S0_Pfi", {1, 1, 1}, {6, 1, 1}, bad);
    ADD_FAILURE() << "a .cube fetch of a layered cubemap ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("a .cube access"), std::string::npos) << e.what();
  }
}

// Mipmapped cubemaps: each level's faces are sampled at the face coordinates of the guide's table
// (as in CubemapFacesAndLayers) scaled by that level's face size; the level of detail as for 2-D
// textures (H200: tests/hw/data/h200/texture_mip, cube_*). Level l's faces are 4 >> l texels wide;
// texel (i, j) of face f on level l holds 1000 l + 100 f + 10 j + i.
TEST(Texture, MipmappedCubemapLevels) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  auto cube_levels = [&](std::uint32_t cubes) {
    std::vector<Image> levels;
    for (std::uint32_t l = 0; l < 2; ++l) {
      Image im;
      im.width = im.height = 4u >> l;
      im.layers = 6 * cubes;
      im.cubemap = true;
      make_block_linear(im);
      im.base = fx.dev.malloc(image_bytes(im));
      std::vector<float> v;
      for (std::uint32_t f = 0; f < im.layers; ++f)
        for (std::uint32_t j = 0; j < im.height; ++j)
          for (std::uint32_t i = 0; i < im.width; ++i) v.push_back(static_cast<float>(1000 * l + 100 * (f % 6) + 10 * j + i));
      Device::ImageBox box;
      box.width_bytes = im.width * 4;
      box.height = im.height;
      box.slices = im.layers;
      fx.dev.copy_image_to_device(im, box, v.data(), box.width_bytes, box.width_bytes * im.height);
      levels.push_back(im);
    }
    return levels;
  };
  const std::vector<float> x = {1, -1, .5f, .5f, -.5f, .5f}, y = {.5f, .5f, 1, -1, -.5f, .5f},
                           z = {-.5f, -.5f, .5f, .5f, 2, -2};
  // Face coordinates (s, t): (.75, .25), (.25, .25), (.75, .75), (.75, .25), (.375, .625), (.375, .375)
  // -> level 0 (4x4): texels (3, 1), (1, 1), (3, 3), (3, 1), (1, 2), (1, 1); level 1 (2x2): (1, 0),
  // (0, 0), (1, 1), (1, 0), (0, 1), (0, 0).
  const std::vector<float> level0 = {13, 111, 233, 313, 421, 511}, level1 = {1001, 1100, 1211, 1301, 1410, 1500};
  const int n = 6;
  const DevicePtr dx = upload(fx.dev, x), dy = upload(fx.dev, y), dz = upload(fx.dev, z), out = fx.dev.malloc(n * 4);
  Sampler s;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  s.normalized_coords = true;
  s.max_lod = 16;  // maxMipmapLevelClamp (0, as in a zeroed cudaTextureDesc, would keep level 0)
  auto fetch = [&](std::uint64_t t, float lod, const char* kernel) {
    const KernelArg args[] = {arg(t), arg(dx), arg(dy), arg(dz), arg(lod), arg(out), arg(n)};
    fx.dev.launch(fx.mod, kernel, {1, 1, 1}, {6, 1, 1}, args);
    return download<float>(fx.dev, out, n);
  };
  const char* kCube = "_Z12tex_cube_lodyPKfS0_S0_fPfi";
  const std::vector<Image> one = cube_levels(1);
  s.mip_filter = FilterMode::kPoint;  // the nearest level: a fraction of 1/2 goes up
  const std::uint64_t tp = fx.dev.create_texture(one, s);
  EXPECT_EQ(fetch(tp, 0.0f, kCube), level0);
  EXPECT_EQ(fetch(tp, 0.49f, kCube), level0);
  EXPECT_EQ(fetch(tp, 0.5f, kCube), level1);
  EXPECT_EQ(fetch(tp, 7.0f, kCube), level1);  // clamped to the last level
  s.mip_filter = FilterMode::kLinear;  // LOD 1/4: level 0 with 192/256, level 1 with 64/256
  const std::uint64_t tl = fx.dev.create_texture(one, s);
  std::vector<float> mixed;
  for (int i = 0; i < n; ++i) mixed.push_back(0.75f * level0[i] + 0.25f * level1[i]);
  EXPECT_EQ(fetch(tl, 0.25f, kCube), mixed);
  // Not measured on the H200, refused naming the form: linear filtering of the faces, and levels
  // of a layered cubemap.
  auto expect_refused = [&](std::uint64_t t, const char* kernel, const std::string& text) {
    try {
      fetch(t, 0.0f, kernel);
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
      EXPECT_NE(std::string(e.what()).find("unsupported on a mipmapped texture (2 levels): " + text), std::string::npos)
          << e.what();
    }
  };
  s.filter = FilterMode::kLinear;
  expect_refused(fx.dev.create_texture(one, s), kCube, "linear filtering of a cubemap");
  s.filter = FilterMode::kPoint;
  expect_refused(fx.dev.create_texture(cube_levels(2), s), "_Z20tex_cube_layered_lodyPKfS0_S0_fPfi", "tex.level.acube");
}

TEST(Texture, QueriesAnswerTheImageSize) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const Image im = fx.array2d(5, 3, std::vector<float>(15, 0.0f));
  Sampler s;
  s.normalized_coords = true;
  const std::uint64_t t = fx.dev.create_texture(im, s), sf = fx.dev.create_surface(im);
  const DevicePtr out = fx.dev.malloc(7 * 4);
  const KernelArg args[] = {arg(t), arg(sf), arg(out)};
  fx.dev.launch(fx.mod, "_Z9tex_queryyyPi", {1, 1, 1}, {1, 1, 1}, args);
  EXPECT_EQ(download<int>(fx.dev, out, 7), (std::vector<int>{5, 3, 1, 0, 1, 5, 3}));
}

TEST(Surface, BoundaryModesZeroClampAndTrap) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const int w = 4, h = 2;
  Image im;
  im.format = TexelFormat{1, 32, ChannelKind::kSigned};
  im.width = w;
  im.height = h;
  make_block_linear(im);
  im.base = fx.dev.malloc(image_bytes(im));
  std::vector<int> v = {1, 2, 3, 4, 5, 6, 7, 8};
  Device::ImageBox box;
  box.width_bytes = 16;
  box.height = 2;
  fx.dev.copy_image_to_device(im, box, v.data(), 16, 32);
  const std::uint64_t s = fx.dev.create_surface(im);
  const std::vector<int> x = {0, 3, 5, -1, 2}, y = {0, 1, 0, 1, 4};
  const int n = 5;
  const DevicePtr dx = upload(fx.dev, x), dy = upload(fx.dev, y), zero = fx.dev.malloc(20), clamp = fx.dev.malloc(20);
  const KernelArg args[] = {arg(s), arg(dx), arg(dy), arg(zero), arg(clamp), arg(n)};
  fx.dev.launch(fx.mod, "_Z7surf_rwyPKiS0_PiS1_i", {1, 1, 1}, {5, 1, 1}, args);
  EXPECT_EQ(download<int>(fx.dev, zero, 5), (std::vector<int>{1, 8, 0, 0, 0}));
  EXPECT_EQ(download<int>(fx.dev, clamp, 5), (std::vector<int>{1, 8, 4, 5, 7}));
  std::vector<int> after(8);
  fx.dev.copy_image_to_host(after.data(), 16, 32, im, box);
  EXPECT_EQ(after, (std::vector<int>{1000, 2, 3, 4, 5, 6, 7, 1001}));  // out-of-range writes dropped

  const int bad = 4;
  const KernelArg targs[] = {arg(s), arg(bad)};
  try {
    fx.dev.launch(fx.mod, "_Z9surf_trapyi", {1, 1, 1}, {1, 1, 1}, targs);
    FAIL() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_NE(std::string(e.what()).find("surface access out of range (.trap): x = 16 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("surf_trap"), std::string::npos) << e.what();
  }
}

TEST(Surface, ReductionsAndFormattedStores) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  Image im;
  im.format = TexelFormat{1, 32, ChannelKind::kUnsigned};
  im.width = 4;
  im.height = 1;
  make_block_linear(im);
  im.base = fx.dev.malloc(image_bytes(im));
  const std::uint64_t s = fx.dev.create_surface(im);
  fx.dev.launch(fx.mod, "_Z12surf_red_addy", {1, 1, 1}, {32, 1, 1}, std::vector<KernelArg>{arg(s)});
  std::vector<unsigned> got(4);
  Device::ImageBox box;
  box.width_bytes = 16;
  fx.dev.copy_image_to_host(got.data(), 16, 16, im, box);
  EXPECT_EQ(got, (std::vector<unsigned>{8, 8, 8, 8}));

  Image rgba = im;
  rgba.format = TexelFormat{4, 8, ChannelKind::kUnsigned};
  rgba.base = fx.dev.malloc(image_bytes(rgba));
  const std::uint64_t s2 = fx.dev.create_surface(rgba);
  fx.dev.launch(fx.mod, "_Z12surf_store_py", {1, 1, 1}, {4, 1, 1}, std::vector<KernelArg>{arg(s2)});
  std::vector<std::uint8_t> bytes(16);
  fx.dev.copy_image_to_host(bytes.data(), 16, 16, rgba, box);
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6}));
}

TEST(Texture, ErrorsNameTheKernelAndWhatIsWrong) {
  WS_LOAD_PTX(ptx, "textures");
  Fixture fx(ptx);
  const std::vector<float> x = {0.5f}, y = {0.5f};
  auto expect_error = [&](std::uint64_t t, ErrorKind kind, const std::string& text) {
    try {
      fx.fetch2d(t, x, y);
      FAIL() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind);
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("tex2d_f4"), std::string::npos) << e.what();
    }
  };
  expect_error(12345, ErrorKind::kTrap, "invalid texture object handle 12345");
  Image im = fx.array2d(2, 2, {1, 2, 3, 4}, TexelFormat{1, 32, ChannelKind::kSigned});
  Sampler s;
  s.filter = FilterMode::kLinear;
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  expect_error(fx.dev.create_texture(im, s), ErrorKind::kUnsupported, "linear filtering of a texture that returns integers");
  s.filter = FilterMode::kPoint;
  s.address = {AddressMode::kWrap, AddressMode::kWrap, AddressMode::kWrap};  // acts as clamp (H100): no error
  const std::uint64_t surf = fx.dev.create_surface(im);
  expect_error(surf, ErrorKind::kTrap, "is not a texture object");
  // An unsupported texel format is refused when the object is made.
  Image bad = im;
  bad.format = TexelFormat{3, 32, ChannelKind::kFloat};
  EXPECT_THROW(fx.dev.create_texture(bad, s), Error);
  EXPECT_THROW(fx.dev.destroy_texture(surf), Error);
}

}  // namespace
}  // namespace warpscope::exec::test
