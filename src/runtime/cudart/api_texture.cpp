// CUDA arrays (plain, 3-D, layered, cubemap, mipmapped), copies to and from them, and texture and
// surface objects (docs/runtime.md, "Arrays, textures and surfaces"). An array is device memory
// in the modelled block-linear layout (warpscope/texture.hpp, docs/mem.md); its cudaArray_t is the
// address of its record here.
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/texref.hpp"
#include "warpscope/texture.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below
using warpscope::DevicePtr;
using warpscope::Image;

namespace {

struct ArrayRec {
  Image image;
  ChannelFormatDesc desc{};
  Extent extent{};  // as given (0 for absent dimensions)
  unsigned flags = 0;
};

struct MipmapRec {
  std::vector<std::unique_ptr<ArrayRec>> levels;
};

struct ObjectRec {
  ResourceDesc res{};
  TextureDesc tex{};
};

/// The runtime's arrays and objects (guarded by the runtime lock, like everything under call()).
struct Registry {
  std::map<const void*, std::unique_ptr<ArrayRec>> arrays;
  std::map<const void*, std::unique_ptr<MipmapRec>> mipmaps;
  std::map<std::uint64_t, ObjectRec> textures, surfaces;
};
Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: programs free arrays from atexit handlers
  return *r;
}

ArrayRec* find_array(const void* a) {
  auto& arrays = registry().arrays;
  auto it = arrays.find(a);
  if (it != arrays.end()) return it->second.get();
  for (auto& [key, m] : registry().mipmaps)
    for (auto& level : m->levels)
      if (level.get() == a) return level.get();
  return nullptr;
}

/// cudaChannelFormatDesc -> texel format; false when warpscope cannot hold it.
bool texel_format(const ChannelFormatDesc& d, warpscope::TexelFormat& f) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned channels = 0;
  for (int b : bits) {
    if (b == 0) break;
    if (b != bits[0]) return false;
    ++channels;
  }
  for (unsigned k = channels; k < 4; ++k)
    if (bits[k] != 0) return false;
  if (channels == 0 || channels == 3 || (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)) return false;
  if (d.f < 0 || d.f > 2 || (d.f == 2 && bits[0] == 8)) return false;
  f.channels = static_cast<std::uint8_t>(channels);
  f.bits = static_cast<std::uint8_t>(bits[0]);
  f.kind = d.f == 0 ? warpscope::ChannelKind::kSigned : d.f == 1 ? warpscope::ChannelKind::kUnsigned
                                                                  : warpscope::ChannelKind::kFloat;
  return true;
}

/// Allocates an array of `extent` (cudaMalloc3DArray's meaning of each dimension and flag).
cudaError_t make_array(Runtime& rt, const ChannelFormatDesc* desc, Extent extent, unsigned flags,
                       std::unique_ptr<ArrayRec>& out) {
  if (desc == nullptr || extent.width == 0) return kErrInvalidValue;
  warpscope::TexelFormat format;
  if (!texel_format(*desc, format)) {
    rt.note(fmt::format("cudaMallocArray: channel format ({}, {}, {}, {}) of kind {} is not supported", desc->x, desc->y,
                        desc->z, desc->w, desc->f));
    return kErrInvalidChannelDescriptor;
  }
  if ((flags & ~(kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap | kArrayTextureGather)) != 0)
    return kErrInvalidValue;
  auto a = std::make_unique<ArrayRec>();
  a->desc = *desc;
  a->extent = extent;
  a->flags = flags;
  Image& im = a->image;
  im.format = format;
  im.width = static_cast<std::uint32_t>(extent.width);
  im.height = static_cast<std::uint32_t>(extent.height == 0 ? 1 : extent.height);
  if ((flags & kArrayCubemap) != 0) {
    const std::size_t faces = (flags & kArrayLayered) != 0 ? extent.depth : 6;
    if (extent.width != extent.height || faces == 0 || faces % 6 != 0 || ((flags & kArrayLayered) == 0 && extent.depth != 6))
      return kErrInvalidValue;
    im.cubemap = true;
    im.layers = static_cast<std::uint32_t>(faces);
  } else if ((flags & kArrayLayered) != 0) {
    if (extent.depth == 0) return kErrInvalidValue;
    im.layers = static_cast<std::uint32_t>(extent.depth);
  } else if (extent.depth != 0) {
    if (extent.height == 0) return kErrInvalidValue;
    im.depth = static_cast<std::uint32_t>(extent.depth);
  }
  warpscope::make_block_linear(im);
  try {
    im.base = rt.device().malloc(warpscope::image_bytes(im));
  } catch (const warpscope::Error&) {
    return kErrMemoryAllocation;
  }
  out = std::move(a);
  return kSuccess;
}

/// Copies `box` of the array (or to it) through host memory: `host` rows `pitch` apart, slices
/// `slice_pitch` apart.
void array_to_host(Runtime& rt, const ArrayRec& a, const warpscope::Device::ImageBox& box, void* host,
                   std::size_t pitch, std::size_t slice_pitch) {
  rt.device().copy_image_to_host(host, pitch, slice_pitch, a.image, box);
}
void host_to_array(Runtime& rt, ArrayRec& a, const warpscope::Device::ImageBox& box, const void* host,
                   std::size_t pitch, std::size_t slice_pitch) {
  rt.device().copy_image_to_device(a.image, box, host, pitch, slice_pitch);
}

/// The kind of a copy between linear memory and a staging buffer on the host: `device_side`
/// says whether the memcpy kind calls the linear side device memory.
int linear_kind(int kind, bool linear_is_source, bool& ok) {
  ok = true;
  if (kind == kDefault) return kDefault;
  const bool src_dev = kind == kDeviceToHost || kind == kDeviceToDevice;
  const bool dst_dev = kind == kHostToDevice || kind == kDeviceToDevice;
  const bool linear_dev = linear_is_source ? src_dev : dst_dev;
  const bool array_dev = linear_is_source ? dst_dev : src_dev;
  if (!array_dev) ok = false;  // the array's side is device memory
  if (linear_is_source) return linear_dev ? kDeviceToHost : kHostToHost;
  return linear_dev ? kHostToDevice : kHostToHost;
}

warpscope::Device::ImageBox box_of(const ArrayRec& a, std::size_t x_bytes, std::size_t y, std::size_t z,
                                   std::size_t width_bytes, std::size_t height, std::size_t depth) {
  warpscope::Device::ImageBox b;
  b.x_bytes = x_bytes;
  b.width_bytes = width_bytes;
  b.y = static_cast<std::uint32_t>(y);
  b.height = static_cast<std::uint32_t>(height);
  b.slice = static_cast<std::uint32_t>(z);
  b.slices = static_cast<std::uint32_t>(depth);
  (void)a;
  return b;
}

/// 2-D copy between an array and linear memory (host or device) rows `pitch` apart.
cudaError_t copy_2d_array(Runtime& rt, ArrayRec* a, std::size_t w_off, std::size_t h_off, void* linear,
                          std::size_t pitch, std::size_t width, std::size_t height, int kind, bool to_array) {
  if (a == nullptr) return kErrInvalidResourceHandle;
  if (width == 0 || height == 0) return kSuccess;
  if (width > pitch) return kErrInvalidPitchValue;
  bool ok = true;
  const int lk = linear_kind(kind, to_array, ok);
  if (!ok || kind < kHostToHost || kind > kDefault) return kErrInvalidMemcpyDirection;
  const std::size_t row = std::size_t{a->image.width} * a->image.format.bytes();
  if (w_off > row || width > row - w_off || h_off > a->image.height || height > a->image.height - h_off)
    return kErrInvalidValue;
  std::vector<std::uint8_t> stage(width * height);
  const auto box = box_of(*a, w_off, h_off, 0, width, height, 1);
  if (to_array) {
    for (std::size_t r = 0; r < height; ++r)
      if (cudaError_t e = rt.copy(stage.data() + r * width, static_cast<char*>(linear) + r * pitch, width, lk); e != kSuccess)
        return e;
    host_to_array(rt, *a, box, stage.data(), width, width * height);
    return kSuccess;
  }
  array_to_host(rt, *a, box, stage.data(), width, width * height);
  for (std::size_t r = 0; r < height; ++r)
    if (cudaError_t e = rt.copy(static_cast<char*>(linear) + r * pitch, stage.data() + r * width, width, lk); e != kSuccess)
      return e;
  return kSuccess;
}

/// cudaMemcpyToArray / FromArray: `count` bytes from (w_off, h_off) on, row after row.
cudaError_t copy_1d_array(Runtime& rt, ArrayRec* a, std::size_t w_off, std::size_t h_off, void* linear,
                          std::size_t count, int kind, bool to_array) {
  if (a == nullptr) return kErrInvalidResourceHandle;
  const std::size_t row = std::size_t{a->image.width} * a->image.format.bytes();
  std::size_t done = 0, x = w_off, y = h_off;
  while (done < count) {
    const std::size_t n = std::min(count - done, row - std::min(row, x));
    if (n == 0 || y >= a->image.height) return kErrInvalidValue;
    if (cudaError_t e = copy_2d_array(rt, a, x, y, static_cast<char*>(linear) + done, n, n, 1, kind, to_array); e != kSuccess)
      return e;
    done += n;
    x = 0;
    ++y;
  }
  return kSuccess;
}

cudaError_t copy_3d(Runtime& rt, const Memcpy3DParms* p) {
  if (p == nullptr) return kErrInvalidValue;
  if ((p->srcArray != nullptr) == (p->srcPtr.ptr != nullptr) || (p->dstArray != nullptr) == (p->dstPtr.ptr != nullptr))
    return kErrInvalidValue;
  if (p->kind < kHostToHost || p->kind > kDefault) return kErrInvalidMemcpyDirection;
  ArrayRec* sa = p->srcArray != nullptr ? find_array(p->srcArray) : nullptr;
  ArrayRec* da = p->dstArray != nullptr ? find_array(p->dstArray) : nullptr;
  if ((p->srcArray != nullptr && sa == nullptr) || (p->dstArray != nullptr && da == nullptr)) return kErrInvalidResourceHandle;
  // With an array on either side, widths and x positions count elements; else bytes.
  const ArrayRec* any = sa != nullptr ? sa : da;
  const std::size_t elem = any != nullptr ? any->image.format.bytes() : 1;
  if (sa != nullptr && da != nullptr && sa->image.format.bytes() != da->image.format.bytes()) return kErrInvalidValue;
  const std::size_t wb = p->extent.width * elem, h = p->extent.height == 0 ? 1 : p->extent.height,
                    d = p->extent.depth == 0 ? 1 : p->extent.depth;
  if (wb == 0) return kSuccess;
  std::vector<std::uint8_t> stage(wb * h * d);
  // Source into the staging buffer.
  if (sa != nullptr) {
    const auto box = box_of(*sa, p->srcPos.x * elem, p->srcPos.y, p->srcPos.z, wb, h, d);
    try {
      array_to_host(rt, *sa, box, stage.data(), wb, wb * h);
    } catch (const warpscope::Error&) {
      return kErrInvalidValue;
    }
  } else {
    const PitchedPtr& s = p->srcPtr;
    if (p->srcPos.x + wb > s.pitch) return kErrInvalidPitchValue;
    const int k = p->kind == kDefault ? kDefault : (p->kind == kDeviceToHost || p->kind == kDeviceToDevice) ? kDeviceToHost : kHostToHost;
    const std::size_t rows = s.ysize == 0 ? h : s.ysize;
    for (std::size_t z = 0; z < d; ++z)
      for (std::size_t y = 0; y < h; ++y) {
        const char* from = static_cast<const char*>(s.ptr) + ((p->srcPos.z + z) * rows + p->srcPos.y + y) * s.pitch + p->srcPos.x;
        if (cudaError_t e = rt.copy(stage.data() + (z * h + y) * wb, from, wb, k); e != kSuccess) return e;
      }
  }
  // The staging buffer into the destination.
  if (da != nullptr) {
    const auto box = box_of(*da, p->dstPos.x * elem, p->dstPos.y, p->dstPos.z, wb, h, d);
    try {
      host_to_array(rt, *da, box, stage.data(), wb, wb * h);
    } catch (const warpscope::Error&) {
      return kErrInvalidValue;
    }
    return kSuccess;
  }
  const PitchedPtr& t = p->dstPtr;
  if (p->dstPos.x + wb > t.pitch) return kErrInvalidPitchValue;
  const int k = p->kind == kDefault ? kDefault : (p->kind == kHostToDevice || p->kind == kDeviceToDevice) ? kHostToDevice : kHostToHost;
  const std::size_t rows = t.ysize == 0 ? h : t.ysize;
  for (std::size_t z = 0; z < d; ++z)
    for (std::size_t y = 0; y < h; ++y) {
      char* to = static_cast<char*>(t.ptr) + ((p->dstPos.z + z) * rows + p->dstPos.y + y) * t.pitch + p->dstPos.x;
      if (cudaError_t e = rt.copy(to, stage.data() + (z * h + y) * wb, wb, k); e != kSuccess) return e;
    }
  return kSuccess;
}

/// The image a resource descriptor names; kSuccess or the error code.
cudaError_t resource_image(Runtime& rt, const ResourceDesc* r, Image& im) {
  if (r == nullptr) return kErrInvalidValue;
  switch (r->resType) {
    case kResArray: {
      const ArrayRec* a = find_array(r->res.array.array);
      if (a == nullptr) return kErrInvalidResourceHandle;
      im = a->image;
      return kSuccess;
    }
    case kResMipmappedArray: {
      auto it = registry().mipmaps.find(r->res.mipmap.mipmap);
      if (it == registry().mipmaps.end()) return kErrInvalidResourceHandle;
      im = it->second->levels.front()->image;
      im.levels = static_cast<std::uint32_t>(it->second->levels.size());
      return kSuccess;
    }
    case kResLinear:
    case kResPitch2D: {
      const bool lin = r->resType == kResLinear;
      const ChannelFormatDesc& d = lin ? r->res.linear.desc : r->res.pitch2D.desc;
      if (!texel_format(d, im.format)) return kErrInvalidChannelDescriptor;
      im.base = reinterpret_cast<DevicePtr>(lin ? r->res.linear.devPtr : r->res.pitch2D.devPtr);
      if (lin) {
        im.layout = warpscope::ImageLayout::kLinear;
        im.width = static_cast<std::uint32_t>(r->res.linear.sizeInBytes / im.format.bytes());
      } else {
        im.layout = warpscope::ImageLayout::kPitch;
        im.width = static_cast<std::uint32_t>(r->res.pitch2D.width);
        im.height = static_cast<std::uint32_t>(r->res.pitch2D.height);
        im.pitch = r->res.pitch2D.pitchInBytes;
      }
      if (rt.classify(reinterpret_cast<void*>(im.base), 1) == Runtime::Where::kHost) return kErrInvalidValue;
      return kSuccess;
    }
    default: return kErrInvalidValue;
  }
}

warpscope::AddressMode address_mode(int m) {
  switch (m) {
    case 0: return warpscope::AddressMode::kWrap;
    case 1: return warpscope::AddressMode::kClamp;
    case 2: return warpscope::AddressMode::kMirror;
    default: return warpscope::AddressMode::kBorder;
  }
}

}  // namespace

WS_API ChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) { return ChannelFormatDesc{x, y, z, w, f}; }

WS_API cudaError_t cudaMallocArray(void** array, const ChannelFormatDesc* desc, std::size_t width, std::size_t height,
                                   unsigned flags) {
  return call("cudaMallocArray", [&](Runtime& rt) {
    if (array == nullptr || (flags & (kArrayLayered | kArrayCubemap)) != 0) return kErrInvalidValue;
    std::unique_ptr<ArrayRec> a;
    if (cudaError_t e = make_array(rt, desc, Extent{width, height, 0}, flags, a); e != kSuccess) return e;
    *array = a.get();
    registry().arrays.emplace(a.get(), std::move(a));
    return kSuccess;
  });
}

WS_API cudaError_t cudaMalloc3DArray(void** array, const ChannelFormatDesc* desc, Extent extent, unsigned flags) {
  return call("cudaMalloc3DArray", [&](Runtime& rt) {
    if (array == nullptr) return kErrInvalidValue;
    std::unique_ptr<ArrayRec> a;
    if (cudaError_t e = make_array(rt, desc, extent, flags, a); e != kSuccess) return e;
    *array = a.get();
    registry().arrays.emplace(a.get(), std::move(a));
    return kSuccess;
  });
}

WS_API cudaError_t cudaMallocMipmappedArray(void** mipmap, const ChannelFormatDesc* desc, Extent extent, unsigned levels,
                                            unsigned flags) {
  return call("cudaMallocMipmappedArray", [&](Runtime& rt) {
    if (mipmap == nullptr || levels == 0) return kErrInvalidValue;
    auto m = std::make_unique<MipmapRec>();
    Extent e = extent;
    for (unsigned l = 0; l < levels; ++l) {
      std::unique_ptr<ArrayRec> a;
      if (cudaError_t err = make_array(rt, desc, e, flags, a); err != kSuccess) {
        for (auto& lv : m->levels) rt.device().free(lv->image.base);
        return err;
      }
      m->levels.push_back(std::move(a));
      // Each level halves every dimension (layers and cube faces excepted), down to 1.
      e.width = std::max<std::size_t>(1, e.width / 2);
      if (e.height != 0) e.height = std::max<std::size_t>(1, e.height / 2);
      if (e.depth != 0 && (flags & (kArrayLayered | kArrayCubemap)) == 0) e.depth = std::max<std::size_t>(1, e.depth / 2);
    }
    *mipmap = m.get();
    registry().mipmaps.emplace(m.get(), std::move(m));
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetMipmappedArrayLevel(void** level_array, const void* mipmap, unsigned level) {
  return call("cudaGetMipmappedArrayLevel", [&](Runtime&) {
    auto it = registry().mipmaps.find(mipmap);
    if (it == registry().mipmaps.end()) return kErrInvalidResourceHandle;
    if (level_array == nullptr || level >= it->second->levels.size()) return kErrInvalidValue;
    *level_array = it->second->levels[level].get();
    return kSuccess;
  });
}

WS_API cudaError_t cudaFreeArray(void* array) {
  return call("cudaFreeArray", [&](Runtime& rt) {
    if (array == nullptr) return kSuccess;
    auto it = registry().arrays.find(array);
    if (it == registry().arrays.end()) return kErrInvalidValue;
    if (rt.has_device()) rt.device().free(it->second->image.base);
    registry().arrays.erase(it);
    return kSuccess;
  });
}

WS_API cudaError_t cudaFreeMipmappedArray(void* mipmap) {
  return call("cudaFreeMipmappedArray", [&](Runtime& rt) {
    if (mipmap == nullptr) return kSuccess;
    auto it = registry().mipmaps.find(mipmap);
    if (it == registry().mipmaps.end()) return kErrInvalidValue;
    if (rt.has_device())
      for (auto& l : it->second->levels) rt.device().free(l->image.base);
    registry().mipmaps.erase(it);
    return kSuccess;
  });
}

WS_API cudaError_t cudaArrayGetInfo(ChannelFormatDesc* desc, Extent* extent, unsigned* flags, void* array) {
  return call("cudaArrayGetInfo", [&](Runtime&) {
    const ArrayRec* a = find_array(array);
    if (a == nullptr) return kErrInvalidResourceHandle;
    if (desc != nullptr) *desc = a->desc;
    if (extent != nullptr) *extent = a->extent;
    if (flags != nullptr) *flags = a->flags;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetChannelDesc(ChannelFormatDesc* desc, const void* array) {
  return call("cudaGetChannelDesc", [&](Runtime&) {
    const ArrayRec* a = find_array(array);
    if (a == nullptr) return kErrInvalidResourceHandle;
    if (desc == nullptr) return kErrInvalidValue;
    *desc = a->desc;
    return kSuccess;
  });
}

// --- copies ------------------------------------------------------------------------------------

WS_API cudaError_t cudaMemcpy2DToArray(void* dst, std::size_t w_off, std::size_t h_off, const void* src, std::size_t spitch,
                                       std::size_t width, std::size_t height, int kind) {
  return call("cudaMemcpy2DToArray", [&](Runtime& rt) {
    return copy_2d_array(rt, find_array(dst), w_off, h_off, const_cast<void*>(src), spitch, width, height, kind, true);
  });
}
WS_API cudaError_t cudaMemcpy2DToArray_ptds(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t sp,
                                            std::size_t width, std::size_t height, int kind) {
  return cudaMemcpy2DToArray(dst, w, h, src, sp, width, height, kind);
}
WS_API cudaError_t cudaMemcpy2DToArrayAsync(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t sp,
                                            std::size_t width, std::size_t height, int kind, void* stream) {
  return call("cudaMemcpy2DToArrayAsync", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    return copy_2d_array(rt, find_array(dst), w, h, const_cast<void*>(src), sp, width, height, kind, true);
  });
}
WS_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t sp,
                                                 std::size_t width, std::size_t height, int kind, void* stream) {
  return cudaMemcpy2DToArrayAsync(dst, w, h, src, sp, width, height, kind, stream);
}

WS_API cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, const void* src, std::size_t w_off, std::size_t h_off,
                                         std::size_t width, std::size_t height, int kind) {
  return call("cudaMemcpy2DFromArray", [&](Runtime& rt) {
    return copy_2d_array(rt, find_array(src), w_off, h_off, dst, dpitch, width, height, kind, false);
  });
}
WS_API cudaError_t cudaMemcpy2DFromArray_ptds(void* dst, std::size_t dp, const void* src, std::size_t w, std::size_t h,
                                              std::size_t width, std::size_t height, int kind) {
  return cudaMemcpy2DFromArray(dst, dp, src, w, h, width, height, kind);
}
WS_API cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, std::size_t dp, const void* src, std::size_t w, std::size_t h,
                                              std::size_t width, std::size_t height, int kind, void* stream) {
  return call("cudaMemcpy2DFromArrayAsync", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    return copy_2d_array(rt, find_array(src), w, h, dst, dp, width, height, kind, false);
  });
}
WS_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void* dst, std::size_t dp, const void* src, std::size_t w, std::size_t h,
                                                   std::size_t width, std::size_t height, int kind, void* stream) {
  return cudaMemcpy2DFromArrayAsync(dst, dp, src, w, h, width, height, kind, stream);
}

WS_API cudaError_t cudaMemcpy2DArrayToArray(void* dst, std::size_t wd, std::size_t hd, const void* src, std::size_t ws,
                                            std::size_t hs, std::size_t width, std::size_t height, int kind) {
  return call("cudaMemcpy2DArrayToArray", [&](Runtime& rt) {
    ArrayRec* d = find_array(dst);
    ArrayRec* s = find_array(src);
    if (d == nullptr || s == nullptr) return kErrInvalidResourceHandle;
    if (kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
    std::vector<std::uint8_t> stage(width * height);
    if (cudaError_t e = copy_2d_array(rt, s, ws, hs, stage.data(), width, width, height, kDeviceToHost, false); e != kSuccess)
      return e;
    return copy_2d_array(rt, d, wd, hd, stage.data(), width, width, height, kHostToDevice, true);
  });
}
WS_API cudaError_t cudaMemcpy2DArrayToArray_ptds(void* dst, std::size_t wd, std::size_t hd, const void* src, std::size_t ws,
                                                 std::size_t hs, std::size_t width, std::size_t height, int kind) {
  return cudaMemcpy2DArrayToArray(dst, wd, hd, src, ws, hs, width, height, kind);
}

WS_API cudaError_t cudaMemcpyArrayToArray(void* dst, std::size_t wd, std::size_t hd, const void* src, std::size_t ws,
                                          std::size_t hs, std::size_t count, int kind) {
  return call("cudaMemcpyArrayToArray", [&](Runtime& rt) {
    ArrayRec* d = find_array(dst);
    ArrayRec* s = find_array(const_cast<void*>(src));
    if (d == nullptr || s == nullptr) return kErrInvalidResourceHandle;
    if (kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
    std::vector<std::uint8_t> stage(count);
    if (cudaError_t e = copy_1d_array(rt, s, ws, hs, stage.data(), count, kDeviceToHost, false); e != kSuccess) return e;
    return copy_1d_array(rt, d, wd, hd, stage.data(), count, kHostToDevice, true);
  });
}
WS_API cudaError_t cudaMemcpyArrayToArray_ptds(void* dst, std::size_t wd, std::size_t hd, const void* src, std::size_t ws,
                                               std::size_t hs, std::size_t count, int kind) {
  return cudaMemcpyArrayToArray(dst, wd, hd, src, ws, hs, count, kind);
}

WS_API cudaError_t cudaMemcpyToArray(void* dst, std::size_t w_off, std::size_t h_off, const void* src, std::size_t count,
                                     int kind) {
  return call("cudaMemcpyToArray", [&](Runtime& rt) {
    return copy_1d_array(rt, find_array(dst), w_off, h_off, const_cast<void*>(src), count, kind, true);
  });
}
WS_API cudaError_t cudaMemcpyToArray_ptds(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t n, int kind) {
  return cudaMemcpyToArray(dst, w, h, src, n, kind);
}
WS_API cudaError_t cudaMemcpyToArrayAsync(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t n, int kind,
                                          void* stream) {
  return call("cudaMemcpyToArrayAsync", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    return copy_1d_array(rt, find_array(dst), w, h, const_cast<void*>(src), n, kind, true);
  });
}
WS_API cudaError_t cudaMemcpyToArrayAsync_ptsz(void* dst, std::size_t w, std::size_t h, const void* src, std::size_t n,
                                               int kind, void* stream) {
  return cudaMemcpyToArrayAsync(dst, w, h, src, n, kind, stream);
}

WS_API cudaError_t cudaMemcpyFromArray(void* dst, const void* src, std::size_t w_off, std::size_t h_off, std::size_t count,
                                       int kind) {
  return call("cudaMemcpyFromArray", [&](Runtime& rt) {
    return copy_1d_array(rt, find_array(src), w_off, h_off, dst, count, kind, false);
  });
}
WS_API cudaError_t cudaMemcpyFromArray_ptds(void* dst, const void* src, std::size_t w, std::size_t h, std::size_t n, int kind) {
  return cudaMemcpyFromArray(dst, src, w, h, n, kind);
}
WS_API cudaError_t cudaMemcpyFromArrayAsync(void* dst, const void* src, std::size_t w, std::size_t h, std::size_t n, int kind,
                                            void* stream) {
  return call("cudaMemcpyFromArrayAsync", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    return copy_1d_array(rt, find_array(src), w, h, dst, n, kind, false);
  });
}
WS_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void* dst, const void* src, std::size_t w, std::size_t h, std::size_t n,
                                                 int kind, void* stream) {
  return cudaMemcpyFromArrayAsync(dst, src, w, h, n, kind, stream);
}

WS_API cudaError_t cudaMemcpy3D(const Memcpy3DParms* p) {
  return call("cudaMemcpy3D", [&](Runtime& rt) { return copy_3d(rt, p); });
}
WS_API cudaError_t cudaMemcpy3D_ptds(const Memcpy3DParms* p) { return cudaMemcpy3D(p); }
WS_API cudaError_t cudaMemcpy3DAsync(const Memcpy3DParms* p, void* stream) {
  return call("cudaMemcpy3DAsync", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    return copy_3d(rt, p);
  });
}
WS_API cudaError_t cudaMemcpy3DAsync_ptsz(const Memcpy3DParms* p, void* stream) { return cudaMemcpy3DAsync(p, stream); }

// --- texture and surface objects -----------------------------------------------------------------

WS_API cudaError_t cudaCreateTextureObject(std::uint64_t* object, const ResourceDesc* res, const TextureDesc* tex,
                                           const void* view) {
  return call("cudaCreateTextureObject", [&](Runtime& rt) {
    if (object == nullptr || tex == nullptr) return kErrInvalidValue;
    if (view != nullptr) {
      rt.note("cudaCreateTextureObject: resource views are not supported");
      return kErrNotSupported;
    }
    Image im;
    if (cudaError_t e = resource_image(rt, res, im); e != kSuccess) return e;
    warpscope::Sampler s;
    for (unsigned k = 0; k < 3; ++k) s.address[k] = address_mode(tex->addressMode[k]);
    s.filter = tex->filterMode == 1 ? warpscope::FilterMode::kLinear : warpscope::FilterMode::kPoint;
    s.read = tex->readMode == 1 ? warpscope::ReadMode::kNormalizedFloat : warpscope::ReadMode::kElementType;
    s.normalized_coords = tex->normalizedCoords != 0;
    s.srgb = tex->sRGB != 0;
    for (unsigned k = 0; k < 4; ++k) s.border[k] = tex->borderColor[k];
    if (s.read == warpscope::ReadMode::kNormalizedFloat && im.format.kind != warpscope::ChannelKind::kFloat &&
        im.format.bits == 32)
      return kErrInvalidValue;  // normalized reads are defined for 8- and 16-bit integers
    s.mip_filter = tex->mipmapFilterMode == 1 ? warpscope::FilterMode::kLinear : warpscope::FilterMode::kPoint;
    s.mip_bias = tex->mipmapLevelBias;
    s.min_lod = tex->minMipmapLevelClamp;
    s.max_lod = tex->maxMipmapLevelClamp;
    std::vector<Image> levels;
    if (res->resType == kResMipmappedArray)
      for (const auto& level : registry().mipmaps.at(res->res.mipmap.mipmap)->levels) levels.push_back(level->image);
    try {
      *object = levels.empty() ? rt.device().create_texture(im, s) : rt.device().create_texture(levels, s);
    } catch (const warpscope::Error& err) {
      rt.note(std::string("cudaCreateTextureObject: ") + err.what());
      return kErrInvalidValue;
    }
    registry().textures[*object] = ObjectRec{*res, *tex};
    return kSuccess;
  });
}

WS_API cudaError_t cudaDestroyTextureObject(std::uint64_t object) {
  return call("cudaDestroyTextureObject", [&](Runtime& rt) {
    auto it = registry().textures.find(object);
    if (it == registry().textures.end()) return object == 0 ? kSuccess : kErrInvalidValue;
    rt.device().destroy_texture(object);
    registry().textures.erase(it);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetTextureObjectResourceDesc(ResourceDesc* res, std::uint64_t object) {
  return call("cudaGetTextureObjectResourceDesc", [&](Runtime&) {
    auto it = registry().textures.find(object);
    if (it == registry().textures.end() || res == nullptr) return kErrInvalidValue;
    *res = it->second.res;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetTextureObjectTextureDesc(TextureDesc* tex, std::uint64_t object) {
  return call("cudaGetTextureObjectTextureDesc", [&](Runtime&) {
    auto it = registry().textures.find(object);
    if (it == registry().textures.end() || tex == nullptr) return kErrInvalidValue;
    *tex = it->second.tex;
    return kSuccess;
  });
}

WS_API cudaError_t cudaCreateSurfaceObject(std::uint64_t* object, const ResourceDesc* res) {
  return call("cudaCreateSurfaceObject", [&](Runtime& rt) {
    if (object == nullptr || res == nullptr || res->resType != kResArray) return kErrInvalidValue;
    Image im;
    if (cudaError_t e = resource_image(rt, res, im); e != kSuccess) return e;
    try {
      *object = rt.device().create_surface(im);
    } catch (const warpscope::Error& err) {
      rt.note(std::string("cudaCreateSurfaceObject: ") + err.what());
      return kErrInvalidValue;
    }
    registry().surfaces[*object] = ObjectRec{*res, TextureDesc{}};
    return kSuccess;
  });
}

WS_API cudaError_t cudaDestroySurfaceObject(std::uint64_t object) {
  return call("cudaDestroySurfaceObject", [&](Runtime& rt) {
    auto it = registry().surfaces.find(object);
    if (it == registry().surfaces.end()) return object == 0 ? kSuccess : kErrInvalidValue;
    rt.device().destroy_surface(object);
    registry().surfaces.erase(it);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetSurfaceObjectResourceDesc(ResourceDesc* res, std::uint64_t object) {
  return call("cudaGetSurfaceObjectResourceDesc", [&](Runtime&) {
    auto it = registry().surfaces.find(object);
    if (it == registry().surfaces.end() || res == nullptr) return kErrInvalidValue;
    *res = it->second.res;
    return kSuccess;
  });
}

// ---- Sparse, deferred-mapping and multi-planar arrays: the arrays made here are none of these
// (their memory is always backed, their formats single-plane), so each query about one answers as
// CUDA does for an array that is not one.

WS_API cudaError_t cudaArrayGetSparseProperties(void* props, void* array) {
  return call("cudaArrayGetSparseProperties", [&](Runtime&) {
    if (props == nullptr) return kErrInvalidValue;
    return find_array(array) == nullptr ? kErrInvalidResourceHandle : kErrInvalidValue;  // not sparse
  });
}

WS_API cudaError_t cudaMipmappedArrayGetSparseProperties(void* props, void* mipmap) {
  return call("cudaMipmappedArrayGetSparseProperties", [&](Runtime&) {
    if (props == nullptr) return kErrInvalidValue;
    return registry().mipmaps.count(mipmap) == 0 ? kErrInvalidResourceHandle : kErrInvalidValue;
  });
}

WS_API cudaError_t cudaArrayGetMemoryRequirements(void* req, void* array, int device) {
  return call("cudaArrayGetMemoryRequirements", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (req == nullptr) return kErrInvalidValue;
    return find_array(array) == nullptr ? kErrInvalidResourceHandle : kErrInvalidValue;  // not deferred-mapping
  });
}

WS_API cudaError_t cudaMipmappedArrayGetMemoryRequirements(void* req, void* mipmap, int device) {
  return call("cudaMipmappedArrayGetMemoryRequirements", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (req == nullptr) return kErrInvalidValue;
    return registry().mipmaps.count(mipmap) == 0 ? kErrInvalidResourceHandle : kErrInvalidValue;
  });
}

WS_API cudaError_t cudaArrayGetPlane(void** plane, void* array, unsigned index) {
  return call("cudaArrayGetPlane", [&](Runtime&) {
    if (plane == nullptr) return kErrInvalidValue;
    if (find_array(array) == nullptr) return kErrInvalidResourceHandle;
    return index == 0 ? kErrInvalidValue : kErrInvalidValue;  // one plane: not a multi-planar array
  });
}

// caveat: every texture object here is made without a resource view: the view's fields are 0 (cudaResViewFormatNone)
WS_API cudaError_t cudaGetTextureObjectResourceViewDesc(void* view, std::uint64_t object) {
  return call("cudaGetTextureObjectResourceViewDesc", [&](Runtime&) {
    if (view == nullptr) return kErrInvalidValue;
    if (!registry().textures.count(object)) return kErrInvalidValue;
    std::memset(view, 0, 112);  // sizeof(cudaResourceViewDesc)
    return kSuccess;
  });
}

namespace warpscope::cudart {

bool array_image(const void* array, Image& image, unsigned& flags) {
  const ArrayRec* a = find_array(array);
  if (a == nullptr) return false;
  image = a->image;
  flags = a->flags;
  return true;
}

bool mipmap_images(const void* mipmap, std::vector<Image>& levels) {
  auto it = registry().mipmaps.find(mipmap);
  if (it == registry().mipmaps.end()) return false;
  levels.clear();
  for (const auto& level : it->second->levels) levels.push_back(level->image);
  return true;
}

}  // namespace warpscope::cudart
