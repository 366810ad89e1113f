// Texture and surface references (`.global .texref` / `.surfref`, PTX ISA 5.3 "Texture Sampler and
// Surface Types"): a module's reference is a handle (Module::reference) that tex/suld/sust through
// the variable and `mov` of it use; Device::bind_texture_reference binds memory to it. Expected
// values are the H200's (tests/hw/data/h200/texref/texref.txt: the 4x4 float array with texel
// (x, y) = 10 y + x, the surface of 8 ints, istypep of moved handles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec_test_util.hpp"
#include "warpscope/texture.hpp"

namespace warpscope::exec::test {
namespace {

const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.global .texref tarr;
.global .surfref sarr;

.visible .entry fetch2d(.param .u64 out, .param .u64 coords, .param .u32 n) {
  .reg .pred %p; .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u32 %r1, [n]; setp.ge.u32 %p, %r0, %r1; @%p bra done;
  ld.param.u64 %rd0, [out]; ld.param.u64 %rd1, [coords]; cvta.to.global.u64 %rd0, %rd0; cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r0, 8; add.u64 %rd3, %rd1, %rd2; ld.global.v2.f32 {%f0, %f1}, [%rd3];
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [tarr, {%f0, %f1}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
done:
  ret;
}
.visible .entry surf(.param .u64 out) {
  .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x; shl.b32 %r1, %r0, 2; mad.lo.u32 %r2, %r0, 3, 1; mov.u32 %r3, 0;
  sust.b.2d.b32.trap [sarr, {%r1, %r3}], {%r2};
  bar.sync 0;
  xor.b32 %r4, %r0, 1; shl.b32 %r4, %r4, 2;
  suld.b.2d.b32.trap {%r5}, [sarr, {%r4, %r3}];
  mul.wide.u32 %rd1, %r0, 4; add.u64 %rd2, %rd0, %rd1; st.global.u32 [%rd2], %r5;
  ret;
}
.visible .entry istype(.param .u64 out) {
  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  mov.u64 %rd1, tarr; mov.u64 %rd2, sarr;
  istypep.texref %p0, %rd1; selp.u32 %r0, 1, 0, %p0;
  istypep.surfref %p1, %rd1; selp.u32 %r1, 1, 0, %p1;
  istypep.surfref %p2, %rd2; selp.u32 %r2, 1, 0, %p2;
  istypep.texref %p3, %rd2; selp.u32 %r3, 1, 0, %p3;
  st.global.v4.u32 [%rd0], {%r0, %r1, %r2, %r3};
  ret;
}
)";

struct Fixture {
  Device dev;
  Module mod = dev.load_ptx(kPtx, "texref.ptx");

  /// The H200 probe's 4x4 one-channel float array: texel (x, y) = 10 y + x.
  Image array(TexelFormat f = {}, unsigned w = 4, unsigned h = 4) {
    Image im;
    im.format = f;
    im.width = w;
    im.height = h;
    make_block_linear(im);
    im.base = dev.malloc(image_bytes(im));
    return im;
  }
  Image texels() {
    Image im = array();
    std::vector<float> v(16);
    for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(10 * (i / 4) + i % 4);
    Device::ImageBox box;
    box.width_bytes = 16;
    box.height = 4;
    dev.copy_image_to_device(im, box, v.data(), 16, 64);
    return im;
  }
  /// The first channel of tex.2d through tarr at each (x, y).
  std::vector<float> fetch(const std::vector<float>& xy) {
    const auto n = static_cast<std::uint32_t>(xy.size() / 2);
    const DevicePtr c = upload(dev, xy), out = dev.malloc(n * 16);
    const KernelArg args[] = {arg(out), arg(c), arg(n)};
    dev.launch(mod, "fetch2d", {1, 1, 1}, {n, 1, 1}, args);
    const std::vector<float> all = download<float>(dev, out, n * 4);
    std::vector<float> first;
    for (std::uint32_t i = 0; i < n; ++i) {
      first.push_back(all[4 * i]);
      EXPECT_EQ(all[4 * i + 1], 0.0f);  // missing channels read 0, the 4th too (H200)
      EXPECT_EQ(all[4 * i + 3], 0.0f);
    }
    return first;
  }
};

// The probe's coordinates ("arr default", "arr linear" lines).
const std::vector<float> kCoords = {0.5f, 0.5f, 1.0f, 1.0f, 1.25f, 0.75f, 2.5f, 3.5f,
                                    -1.0f, 2.0f, 5.5f, 1.5f, 3.75f, 0.25f, 0.9f, 2.6f};

TEST(TexRef, ModuleReferencesAreHandlesOfTheirKind) {
  Fixture fx;
  const std::uint64_t t = fx.mod.reference("tarr", false), s = fx.mod.reference("sarr", true);
  EXPECT_NE(t, 0u);
  EXPECT_NE(s, 0u);
  EXPECT_NE(t, s);
  EXPECT_EQ(fx.mod.reference("tarr", true), 0u);  // cuModuleGetSurfRef of a texref: CUDA_ERROR_NOT_FOUND
  EXPECT_EQ(fx.mod.reference("sarr", false), 0u);
  EXPECT_EQ(fx.mod.reference("nosuch", false), 0u);
  // A reference is no memory: not a symbol of the module.
  EXPECT_THROW((void)fx.dev.symbol_address(fx.mod, "tarr"), Error);
  // Its handle is no texture object: cudaDestroyTextureObject of it is refused.
  EXPECT_THROW(fx.dev.destroy_texture(t), Error);
}

TEST(TexRef, FetchesThroughABoundReferenceAreTheH200s) {
  Fixture fx;
  const std::uint64_t t = fx.mod.reference("tarr", false);
  Sampler s;  // a fresh reference: clamp in every dimension, point filtering (H200)
  s.address = {AddressMode::kClamp, AddressMode::kClamp, AddressMode::kClamp};
  fx.dev.bind_texture_reference(t, {fx.texels()}, s);
  EXPECT_EQ(fx.fetch(kCoords), (std::vector<float>{0, 11, 1, 32, 20, 13, 3, 20}));
  s.filter = FilterMode::kLinear;
  fx.dev.bind_texture_reference(t, {fx.texels()}, s);
  EXPECT_EQ(fx.fetch(kCoords), (std::vector<float>{0, 5.5f, 3.25f, 32, 15, 13, 3, 21.4140625f}));
  s.address = {AddressMode::kBorder, AddressMode::kBorder, AddressMode::kClamp};
  s.border = {0.25f, 0.5f, 0.75f, 1.0f};
  fx.dev.bind_texture_reference(t, {fx.texels()}, s);
  EXPECT_EQ(fx.fetch(kCoords), (std::vector<float>{0, 5.5f, 3.25f, 32, 0.25f, 0.25f, 1.796875f, 21.4140625f}));
}

TEST(TexRef, AnUnboundReferenceIsRefusedWithItsName) {
  // The H200 reads zeros through a reference never bound; warpscope refuses the fetch.
  Fixture fx;
  try {
    (void)fx.fetch({0.5f, 0.5f});
    FAIL() << "the fetch through an unbound reference ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("texture reference 'tarr' is not bound to memory"), std::string::npos) << e.what();
  }
  const std::uint64_t t = fx.mod.reference("tarr", false);
  fx.dev.unbind_reference(t, "bound to address 0 (cuTexRefSetAddress)");
  try {
    (void)fx.fetch({0.5f, 0.5f});
    FAIL() << "the fetch through an unbound reference ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("texture reference 'tarr': bound to address 0"), std::string::npos) << e.what();
  }
  // Binding a surface to a texture reference, or a texture reference as a surface, is refused.
  EXPECT_THROW(fx.dev.bind_surface_reference(t, fx.array()), Error);
  EXPECT_THROW(fx.dev.bind_texture_reference(fx.mod.reference("sarr", true), {fx.array()}, Sampler{}), Error);
}

TEST(TexRef, SurfaceReferenceStoresAndLoads) {
  Fixture fx;
  TexelFormat f;
  f.kind = ChannelKind::kSigned;
  fx.dev.bind_surface_reference(fx.mod.reference("sarr", true), fx.array(f, 8, 1));
  const DevicePtr out = fx.dev.malloc(32);
  const KernelArg args[] = {arg(out)};
  fx.dev.launch(fx.mod, "surf", {1, 1, 1}, {8, 1, 1}, args);
  EXPECT_EQ(download<std::uint32_t>(fx.dev, out, 8), (std::vector<std::uint32_t>{4, 1, 10, 7, 16, 13, 22, 19}));
}

TEST(TexRef, IstypepOfMovedHandles) {
  Fixture fx;
  const DevicePtr out = fx.dev.malloc(16);
  const KernelArg args[] = {arg(out)};
  fx.dev.launch(fx.mod, "istype", {1, 1, 1}, {1, 1, 1}, args);
  // H200: istypep.texref(texref) 1, .surfref(texref) 0, .surfref(surfref) 1, .texref(surfref) 0.
  EXPECT_EQ(download<std::uint32_t>(fx.dev, out, 4), (std::vector<std::uint32_t>{1, 0, 1, 0}));
}

TEST(TexRef, FormsThatAreRefused) {
  Device dev;
  const std::string head = ".version 8.0\n.target sm_90\n.address_size 64\n";
  auto refused = [&](const std::string& body, const std::string& message) {
    try {
      (void)dev.load_ptx(head + body, "refused.ptx");
      ADD_FAILURE() << "loaded: " << body;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused(".global .samplerref s = { filter_mode = linear };\n",
          "'.samplerref' variables (separate samplers: the independent texturing mode) are not supported");
  refused(".global .texref t[2];\n", "arrays of '.texref' variables are not supported");
  refused(".shared .texref t;\n", "'.texref' variables must be .global");
  refused(".global .surfref s;\n.entry k() { .reg .f32 %f<5>; .reg .b32 %r;\n"
          "  tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [s, {%r}]; ret; }\n",
          "'tex' needs a .texref variable or a 64-bit register holding an object handle");
}

}  // namespace
}  // namespace warpscope::exec::test
