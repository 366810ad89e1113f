// Texture and surface references of the driver API (cuda.h, deprecated but still in CUDA 13's
// driver; docs/runtime.md "Texture and surface references"): cuModuleGetTexRef/GetSurfRef,
// cuTexRefCreate/Destroy, every cuTexRefSet*/Get*, cuSurfRefSet/GetArray, cuParamSetTexRef and
// cuTexObjectGetResourceViewDesc.
//
// A module's `.global .texref name;` is a handle in the device's object table (Module::reference);
// kernels fetch through it with tex/tld4/txq (surfaces: suld/sust/sured/suq). A CUtexref here is
// the driver's record of one such reference, or of one cuTexRefCreate made (no kernel reads those):
// its settings and what is bound to it. After every change the record is bound again
// (Device::bind_texture_reference) as the texture object it now describes, so the next launch
// reads it; a binding the texture unit cannot take (a range outside every allocation, a format of
// another texel size than the array's) leaves the reference unbound with the reason, which a fetch
// through it reports.
//
// Values are the H200's (driver 580, tests/hw/data/h200/texref/texref.txt): a fresh reference has
// format CU_AD_FORMAT_FLOAT x 1, address mode CLAMP in all three dimensions, point filtering, flags
// 0, bias/clamps/anisotropy/border 0; cuTexRefSetAddress binds from the pointer rounded down to
// CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT (512) and returns the remainder, the texels spanning the
// remainder plus `bytes`; cuTexRefSetAddress2D needs a 512-aligned pointer and a pitch that is a
// multiple of 32 and holds a row; cuParamSetTexRef returns CUDA_ERROR_INVALID_VALUE.
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/runtime.hpp"
#include "runtime/cudart/texref.hpp"
#include "warpscope/texture.hpp"

extern "C" {
warpscope::cudart::cudaError_t cudaGetTextureObjectResourceDesc(warpscope::cudart::ResourceDesc* res, std::uint64_t object);
}

namespace warpscope::cudart::drv {
namespace {

constexpr std::uint64_t kTextureAlignment = 512;      // CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT (H200)
constexpr std::uint64_t kTexturePitchAlignment = 32;  // CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT (H200)
constexpr unsigned kOverrideFormat = 0x01;            // CU_TRSA_OVERRIDE_FORMAT
constexpr unsigned kReadAsInteger = 0x01, kNormalizedCoordinates = 0x02, kSrgb = 0x10;
constexpr unsigned kKnownFlags = 0x01 | 0x02 | 0x10 | 0x20 | 0x40;  // CU_TRSF_*: 0xff is refused (H200)

/// CUDA_ARRAY_DESCRIPTOR.
struct ArrayDesc {
  std::size_t width, height;
  int format;
  unsigned channels;
};
static_assert(sizeof(ArrayDesc) == 24);

struct TexRef {
  enum class Bound { kNone, kArray, kMipmap, kLinear, kPitch };
  std::uint64_t handle = 0;  // the module reference's; 0 for one cuTexRefCreate made
  std::string name;
  int format = 0x20;  // CU_AD_FORMAT_FLOAT
  unsigned channels = 1;
  int address[3] = {1, 1, 1};  // CU_TR_ADDRESS_MODE_CLAMP
  int filter = 0, mip_filter = 0;
  float bias = 0, min_lod = 0, max_lod = 0;
  unsigned anisotropy = 0;
  float border[4] = {0, 0, 0, 0};
  unsigned flags = 0;
  Bound bound = Bound::kNone;
  void* array = nullptr;       // kArray: CUarray; kMipmap: CUmipmappedArray
  std::uint64_t base = 0;      // kLinear, kPitch: the aligned address
  std::uint64_t bytes = 0;     // kLinear: bytes from `base` (the remainder plus the size given)
  std::size_t width = 0, height = 0, pitch = 0;  // kPitch
};

struct SurfRef {
  std::uint64_t handle = 0;
  std::string name;
  void* array = nullptr;
};

struct Refs {
  std::map<std::uint64_t, std::unique_ptr<TexRef>> module_tex;  // by handle
  std::map<std::uint64_t, std::unique_ptr<SurfRef>> module_surf;
  std::set<const void*> tex, surf;  // every live record (module references and created ones)
};
Refs& refs() {
  static Refs* r = new Refs;  // never destroyed: references outlive static destruction order
  return *r;
}

TexRef* tex_of(void* h) { return refs().tex.count(h) != 0 ? static_cast<TexRef*>(h) : nullptr; }
SurfRef* surf_of(void* h) { return refs().surf.count(h) != 0 ? static_cast<SurfRef*>(h) : nullptr; }

/// Runs `body` under the runtime's lock after the context check; exceptions become error codes.
template <typename F>
CUresult locked(const char* api, F&& body) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  if (rt.sticky != kSuccess) return rt.sticky;
  try {
    return body(rt);
  } catch (const Error& err) {
    rt.note(fmt::format("{}: {}", api, err.what()));
    bool sticky = false;
    return from_runtime(map_error(err, &sticky));
  }
}

/// A texref's operation on a valid record.
template <typename F>
CUresult with_tex(const char* api, void* h, F&& body) {
  return locked(api, [&](Runtime& rt) -> CUresult {
    TexRef* t = tex_of(h);
    if (t == nullptr) return kCuInvalidHandle;
    return body(rt, *t);
  });
}

/// CUarray_format and channel count -> texel format; false for formats warpscope has no texel for.
bool texel_format(int format, unsigned channels, TexelFormat& f) {
  switch (format) {
    case 0x01: f.bits = 8, f.kind = ChannelKind::kUnsigned; break;
    case 0x02: f.bits = 16, f.kind = ChannelKind::kUnsigned; break;
    case 0x03: f.bits = 32, f.kind = ChannelKind::kUnsigned; break;
    case 0x08: f.bits = 8, f.kind = ChannelKind::kSigned; break;
    case 0x09: f.bits = 16, f.kind = ChannelKind::kSigned; break;
    case 0x0a: f.bits = 32, f.kind = ChannelKind::kSigned; break;
    case 0x10: f.bits = 16, f.kind = ChannelKind::kFloat; break;
    case 0x20: f.bits = 32, f.kind = ChannelKind::kFloat; break;
    default: return false;
  }
  if (channels != 1 && channels != 2 && channels != 4) return false;
  f.channels = static_cast<std::uint8_t>(channels);
  return true;
}

/// The inverse, for an array's format (CU_TRSA_OVERRIDE_FORMAT).
void cu_format(const TexelFormat& f, int& format, unsigned& channels) {
  channels = f.channels;
  if (f.kind == ChannelKind::kFloat) {
    format = f.bits == 16 ? 0x10 : 0x20;
  } else {
    const int base = f.kind == ChannelKind::kUnsigned ? 0x01 : 0x08;
    format = base + (f.bits == 8 ? 0 : f.bits == 16 ? 1 : 2);
  }
}

AddressMode address_mode(int m) {
  switch (m) {
    case 0: return AddressMode::kWrap;
    case 1: return AddressMode::kClamp;
    case 2: return AddressMode::kMirror;
    default: return AddressMode::kBorder;
  }
}

Sampler sampler_of(const TexRef& t, const TexelFormat& f) {
  Sampler s;
  for (unsigned k = 0; k < 3; ++k) s.address[k] = address_mode(t.address[k]);
  s.filter = t.filter == 1 ? FilterMode::kLinear : FilterMode::kPoint;
  // Without CU_TRSF_READ_AS_INTEGER 8- and 16-bit integers are read as floats in [0, 1] ([-1, 1])
  // (the H200's u8x4 and u16 fetches), as cuTexObjectCreate's.
  const bool small_int = f.kind != ChannelKind::kFloat && f.bits < 32;
  s.read = (t.flags & kReadAsInteger) == 0 && small_int ? ReadMode::kNormalizedFloat : ReadMode::kElementType;
  s.normalized_coords = (t.flags & kNormalizedCoordinates) != 0;
  s.srgb = (t.flags & kSrgb) != 0;
  for (unsigned k = 0; k < 4; ++k) s.border[k] = t.border[k];
  s.mip_filter = t.mip_filter == 1 ? FilterMode::kLinear : FilterMode::kPoint;
  s.mip_bias = t.bias;
  s.min_lod = t.min_lod;
  s.max_lod = t.max_lod;
  return s;
}

/// The texref's format over an array's images: its own when the texel sizes agree (the H200 reads
/// a u8x4 array as u16x2 after cuTexRefSetFormat), else the reason it cannot be.
std::string reformat(std::vector<Image>& levels, const TexelFormat& f) {
  for (Image& im : levels) {
    if (im.format.bytes() != f.bytes())
      return fmt::format("its format ({} channels of {} bits) has another texel size than the bound array's ({} of {} bits)",
                         unsigned{f.channels}, unsigned{f.bits}, unsigned{im.format.channels}, unsigned{im.format.bits});
    im.format = f;
  }
  return {};
}

/// Binds the module reference to what the record describes now (nothing for created records).
void push(Runtime& rt, const TexRef& t) {
  if (t.handle == 0) return;
  Device& dev = rt.device();
  TexelFormat f;
  if (!texel_format(t.format, t.channels, f)) {
    dev.unbind_reference(t.handle, fmt::format("format 0x{:x} of {} channels is not supported", t.format, t.channels));
    return;
  }
  std::vector<Image> levels;
  std::string why;
  switch (t.bound) {
    case TexRef::Bound::kNone: dev.unbind_reference(t.handle); return;
    case TexRef::Bound::kArray: {
      Image im;
      unsigned flags = 0;
      if (!array_image(t.array, im, flags)) why = "the bound CUDA array was destroyed";
      levels.push_back(im);
      if (why.empty()) why = reformat(levels, f);
      break;
    }
    case TexRef::Bound::kMipmap:
      if (!mipmap_images(t.array, levels)) why = "the bound mipmapped array was destroyed";
      if (why.empty()) why = reformat(levels, f);
      break;
    case TexRef::Bound::kLinear: {
      Image im;
      im.layout = ImageLayout::kLinear;
      im.format = f;
      im.base = t.base;
      im.width = static_cast<std::uint32_t>(t.bytes / f.bytes());
      if (t.base == 0) why = "bound to address 0 (cuTexRefSetAddress)";
      else if (im.width == 0) why = fmt::format("bound to {} bytes, less than one texel (cuTexRefSetAddress)", t.bytes);
      levels.push_back(im);
      break;
    }
    case TexRef::Bound::kPitch: {
      Image im;
      im.layout = ImageLayout::kPitch;
      im.format = f;
      im.base = t.base;
      im.width = static_cast<std::uint32_t>(t.width);
      im.height = static_cast<std::uint32_t>(t.height);
      im.pitch = t.pitch;
      if (t.pitch < t.width * f.bytes())
        why = fmt::format("its format's rows of {} texels do not fit the pitch of {} bytes", t.width, t.pitch);
      levels.push_back(im);
      break;
    }
  }
  if (why.empty()) {
    try {
      dev.bind_texture_reference(t.handle, levels, sampler_of(t, f));
      return;
    } catch (const Error& e) {
      why = e.what();
    }
  }
  dev.unbind_reference(t.handle, why);
}

/// A setter: checks, changes the record, binds it again.
template <typename F>
CUresult set(const char* api, void* h, F&& change) {
  return with_tex(api, h, [&](Runtime& rt, TexRef& t) -> CUresult {
    if (CUresult e = change(t); e != kCuSuccess) return e;
    push(rt, t);
    return kCuSuccess;
  });
}

}  // namespace

// ---- Module references ----------------------------------------------------------------------

WS_DRV CUresult cuModuleGetTexRef(void** ref, void* module, const char* name) {
  return locked("cuModuleGetTexRef", [&](Runtime& rt) -> CUresult {
    if (ref == nullptr || name == nullptr) return kCuInvalidValue;
    ModuleRec* m = driver_module(module);
    if (m == nullptr) return kCuInvalidHandle;
    if (cudaError_t e = rt.ensure_loaded(*m); e != kSuccess) return from_runtime(e);
    const std::uint64_t h = m->module->reference(name, false);
    if (h == 0) return kCuNotFound;
    auto& rec = refs().module_tex[h];
    if (!rec) {
      rec = std::make_unique<TexRef>();
      rec->handle = h;
      rec->name = name;
      refs().tex.insert(rec.get());
    }
    *ref = rec.get();
    return kCuSuccess;
  });
}

WS_DRV CUresult cuModuleGetSurfRef(void** ref, void* module, const char* name) {
  return locked("cuModuleGetSurfRef", [&](Runtime& rt) -> CUresult {
    if (ref == nullptr || name == nullptr) return kCuInvalidValue;
    ModuleRec* m = driver_module(module);
    if (m == nullptr) return kCuInvalidHandle;
    if (cudaError_t e = rt.ensure_loaded(*m); e != kSuccess) return from_runtime(e);
    const std::uint64_t h = m->module->reference(name, true);
    if (h == 0) return kCuNotFound;
    auto& rec = refs().module_surf[h];
    if (!rec) {
      rec = std::make_unique<SurfRef>();
      rec->handle = h;
      rec->name = name;
      refs().surf.insert(rec.get());
    }
    *ref = rec.get();
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefCreate(void** ref) {
  return locked("cuTexRefCreate", [&](Runtime&) -> CUresult {
    if (ref == nullptr) return kCuInvalidValue;
    auto* t = new TexRef;
    refs().tex.insert(t);
    *ref = t;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefDestroy(void* ref) {
  return locked("cuTexRefDestroy", [&](Runtime&) -> CUresult {
    TexRef* t = tex_of(ref);
    if (t == nullptr || t->handle != 0) return kCuInvalidHandle;  // a module's reference is the module's
    refs().tex.erase(t);
    delete t;
    return kCuSuccess;
  });
}

// ---- Binding ---------------------------------------------------------------------------------

WS_DRV CUresult cuTexRefSetArray(void* ref, void* array, unsigned flags) {
  return set("cuTexRefSetArray", ref, [&](TexRef& t) -> CUresult {
    if (flags != 0 && flags != kOverrideFormat) return kCuInvalidValue;
    Image im;
    unsigned array_flags = 0;
    if (!array_image(array, im, array_flags)) return kCuInvalidHandle;
    if ((flags & kOverrideFormat) != 0) cu_format(im.format, t.format, t.channels);
    t.bound = TexRef::Bound::kArray;
    t.array = array;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetMipmappedArray(void* ref, void* mipmap, unsigned flags) {
  return set("cuTexRefSetMipmappedArray", ref, [&](TexRef& t) -> CUresult {
    if (flags != 0 && flags != kOverrideFormat) return kCuInvalidValue;
    std::vector<Image> levels;
    if (!mipmap_images(mipmap, levels) || levels.empty()) return kCuInvalidHandle;
    if ((flags & kOverrideFormat) != 0) cu_format(levels[0].format, t.format, t.channels);
    t.bound = TexRef::Bound::kMipmap;
    t.array = mipmap;
    return kCuSuccess;
  });
}

// caveat: a range outside every allocation is accepted; a fetch through it then fails, naming it
WS_DRV CUresult cuTexRefSetAddress_v2(std::size_t* offset, void* ref, std::uint64_t dptr, std::size_t bytes) {
  return set("cuTexRefSetAddress", ref, [&](TexRef& t) -> CUresult {
    if (offset == nullptr) return kCuInvalidValue;
    *offset = static_cast<std::size_t>(dptr % kTextureAlignment);
    t.bound = TexRef::Bound::kLinear;
    t.array = nullptr;
    t.base = dptr - *offset;
    t.bytes = dptr == 0 ? 0 : *offset + bytes;
    return kCuSuccess;
  });
}

namespace {
CUresult set_address_2d(const char* api, void* ref, const ArrayDesc* desc, std::uint64_t dptr, std::size_t pitch) {
  return set(api, ref, [&](TexRef& t) -> CUresult {
    if (desc == nullptr) return kCuInvalidValue;
    TexelFormat f;
    if (!texel_format(desc->format, desc->channels, f)) return kCuInvalidValue;
    if (dptr % kTextureAlignment != 0 || pitch % kTexturePitchAlignment != 0 || pitch < desc->width * f.bytes() ||
        desc->width == 0 || desc->height == 0)
      return kCuInvalidValue;
    t.format = desc->format;
    t.channels = desc->channels;
    t.bound = TexRef::Bound::kPitch;
    t.array = nullptr;
    t.base = dptr;
    t.width = desc->width;
    t.height = desc->height;
    t.pitch = pitch;
    return kCuSuccess;
  });
}
}  // namespace

WS_DRV CUresult cuTexRefSetAddress2D_v2(void* ref, const ArrayDesc* desc, std::uint64_t dptr, std::size_t pitch) {
  return set_address_2d("cuTexRefSetAddress2D", ref, desc, dptr, pitch);
}
WS_DRV CUresult cuTexRefSetAddress2D_v3(void* ref, const ArrayDesc* desc, std::uint64_t dptr, std::size_t pitch) {
  return set_address_2d("cuTexRefSetAddress2D", ref, desc, dptr, pitch);
}

// ---- Settings --------------------------------------------------------------------------------

WS_DRV CUresult cuTexRefSetFormat(void* ref, int format, int channels) {
  return set("cuTexRefSetFormat", ref, [&](TexRef& t) -> CUresult {
    TexelFormat f;
    if (channels != 1 && channels != 2 && channels != 4) return kCuInvalidValue;  // 3: the H200's answer
    if (!texel_format(format, static_cast<unsigned>(channels), f)) {
      Runtime::get().note(fmt::format("cuTexRefSetFormat: format 0x{:x} is not supported by warpscope", format));
      return kCuNotSupported;
    }
    t.format = format;
    t.channels = static_cast<unsigned>(channels);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetAddressMode(void* ref, int dim, int mode) {
  return set("cuTexRefSetAddressMode", ref, [&](TexRef& t) -> CUresult {
    if (dim < 0 || dim > 2 || mode < 0 || mode > 3) return kCuInvalidValue;
    t.address[dim] = mode;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetFilterMode(void* ref, int mode) {
  return set("cuTexRefSetFilterMode", ref, [&](TexRef& t) -> CUresult {
    if (mode != 0 && mode != 1) return kCuInvalidValue;
    t.filter = mode;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetMipmapFilterMode(void* ref, int mode) {
  return set("cuTexRefSetMipmapFilterMode", ref, [&](TexRef& t) -> CUresult {
    if (mode != 0 && mode != 1) return kCuInvalidValue;
    t.mip_filter = mode;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetMipmapLevelBias(void* ref, float bias) {
  return set("cuTexRefSetMipmapLevelBias", ref, [&](TexRef& t) -> CUresult {
    t.bias = bias;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetMipmapLevelClamp(void* ref, float min_lod, float max_lod) {
  return set("cuTexRefSetMipmapLevelClamp", ref, [&](TexRef& t) -> CUresult {
    t.min_lod = min_lod;
    t.max_lod = max_lod;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetMaxAnisotropy(void* ref, unsigned anisotropy) {
  return set("cuTexRefSetMaxAnisotropy", ref, [&](TexRef& t) -> CUresult {
    t.anisotropy = anisotropy;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefSetBorderColor(void* ref, const float* rgba) {
  return set("cuTexRefSetBorderColor", ref, [&](TexRef& t) -> CUresult {
    if (rgba == nullptr) return kCuInvalidValue;
    std::memcpy(t.border, rgba, sizeof t.border);
    return kCuSuccess;
  });
}

// caveat: CU_TRSF_SRGB reads differ from the H200's in the low mantissa bits (tests/hw/data/h200/texref)
WS_DRV CUresult cuTexRefSetFlags(void* ref, unsigned flags) {
  return set("cuTexRefSetFlags", ref, [&](TexRef& t) -> CUresult {
    if ((flags & ~kKnownFlags) != 0) return kCuInvalidValue;
    t.flags = flags;
    return kCuSuccess;
  });
}

// ---- Getters ---------------------------------------------------------------------------------

WS_DRV CUresult cuTexRefGetAddress_v2(std::uint64_t* dptr, void* ref) {
  return with_tex("cuTexRefGetAddress", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (dptr == nullptr) return kCuInvalidValue;
    const bool memory = t.bound == TexRef::Bound::kLinear || t.bound == TexRef::Bound::kPitch;
    *dptr = memory ? t.base : 0;  // the H200 writes 0 when no memory is bound
    return memory ? kCuSuccess : kCuInvalidValue;
  });
}

WS_DRV CUresult cuTexRefGetArray(void** array, void* ref) {
  return with_tex("cuTexRefGetArray", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (array == nullptr || t.bound != TexRef::Bound::kArray) return kCuInvalidValue;
    *array = t.array;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetMipmappedArray(void** mipmap, void* ref) {
  return with_tex("cuTexRefGetMipmappedArray", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (mipmap == nullptr || t.bound != TexRef::Bound::kMipmap) return kCuInvalidValue;
    *mipmap = t.array;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetFormat(int* format, int* channels, void* ref) {
  return with_tex("cuTexRefGetFormat", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (format == nullptr && channels == nullptr) return kCuInvalidValue;
    if (format != nullptr) *format = t.format;
    if (channels != nullptr) *channels = static_cast<int>(t.channels);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetAddressMode(int* mode, void* ref, int dim) {
  return with_tex("cuTexRefGetAddressMode", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (mode == nullptr || dim < 0 || dim > 2) return kCuInvalidValue;
    *mode = t.address[dim];
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetFilterMode(int* mode, void* ref) {
  return with_tex("cuTexRefGetFilterMode", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (mode == nullptr) return kCuInvalidValue;
    *mode = t.filter;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetMipmapFilterMode(int* mode, void* ref) {
  return with_tex("cuTexRefGetMipmapFilterMode", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (mode == nullptr) return kCuInvalidValue;
    *mode = t.mip_filter;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetMipmapLevelBias(float* bias, void* ref) {
  return with_tex("cuTexRefGetMipmapLevelBias", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (bias == nullptr) return kCuInvalidValue;
    *bias = t.bias;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetMipmapLevelClamp(float* min_lod, float* max_lod, void* ref) {
  return with_tex("cuTexRefGetMipmapLevelClamp", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (min_lod == nullptr || max_lod == nullptr) return kCuInvalidValue;
    *min_lod = t.min_lod;
    *max_lod = t.max_lod;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetMaxAnisotropy(int* anisotropy, void* ref) {
  return with_tex("cuTexRefGetMaxAnisotropy", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (anisotropy == nullptr) return kCuInvalidValue;
    *anisotropy = static_cast<int>(t.anisotropy);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetBorderColor(float* rgba, void* ref) {
  return with_tex("cuTexRefGetBorderColor", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (rgba == nullptr) return kCuInvalidValue;
    std::memcpy(rgba, t.border, sizeof t.border);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuTexRefGetFlags(unsigned* flags, void* ref) {
  return with_tex("cuTexRefGetFlags", ref, [&](Runtime&, TexRef& t) -> CUresult {
    if (flags == nullptr) return kCuInvalidValue;
    *flags = t.flags;
    return kCuSuccess;
  });
}

// ---- Surface references ----------------------------------------------------------------------

WS_DRV CUresult cuSurfRefSetArray(void* ref, void* array, unsigned flags) {
  return locked("cuSurfRefSetArray", [&](Runtime& rt) -> CUresult {
    SurfRef* s = surf_of(ref);
    if (s == nullptr) return kCuInvalidHandle;
    if (flags != 0) return kCuInvalidValue;
    Image im;
    unsigned array_flags = 0;
    if (!array_image(array, im, array_flags)) return kCuInvalidHandle;
    if ((array_flags & kArraySurfaceLoadStore) == 0) return kCuInvalidValue;  // CUDA_ARRAY3D_SURFACE_LDST
    rt.device().bind_surface_reference(s->handle, im);
    s->array = array;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuSurfRefGetArray(void** array, void* ref) {
  return locked("cuSurfRefGetArray", [&](Runtime&) -> CUresult {
    SurfRef* s = surf_of(ref);
    if (s == nullptr) return kCuInvalidHandle;
    if (array == nullptr || s->array == nullptr) return kCuInvalidValue;
    *array = s->array;
    return kCuSuccess;
  });
}

// ---- Legacy launches and texture objects -----------------------------------------------------

// A module's references are bound for every kernel of the module; the H200's driver answers
// CUDA_ERROR_INVALID_VALUE to every call (CU_PARAM_TR_DEFAULT or not, with or without a parameter
// size set), and so does this one.
// caveat: returns CUDA_ERROR_INVALID_VALUE for every texture unit, as the H200's driver 580 does
WS_DRV CUresult cuParamSetTexRef(void* function, int texunit, void* ref) {
  (void)function;
  (void)texunit;
  (void)ref;
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return kCuInvalidValue;
}

// An object made without a resource view (warpscope makes no other: cuTexObjectCreate refuses
// views): CUDA_SUCCESS and the descriptor left as it was, the H200's answer.
// caveat: CUDA_SUCCESS with the descriptor untouched (the H200's answer for an object without a view)
WS_DRV CUresult cuTexObjectGetResourceViewDesc(void* view, std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (view == nullptr) return kCuInvalidValue;
  ResourceDesc r{};
  return via_runtime([&] { return cudaGetTextureObjectResourceDesc(&r, object); });
}

}  // namespace warpscope::cudart::drv
