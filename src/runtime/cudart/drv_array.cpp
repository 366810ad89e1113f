// The driver API's CUDA arrays, copies to and from them (1-D, 2-D, 3-D), and texture and surface
// objects (drv.hpp): CUarray and CUmipmappedArray are the runtime's cudaArray_t and
// cudaMipmappedArray_t, CUtexObject and CUsurfObject its objects (api_texture.cpp does the work).
// The driver's descriptors are translated: CUarray_format and a channel count to a
// cudaChannelFormatDesc, CUDA_MEMCPY3D (positions and widths in bytes) to cudaMemcpy3DParms
// (in elements where an array takes part), CUDA_RESOURCE_DESC and CUDA_TEXTURE_DESC to the
// runtime's descriptors.
#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

extern "C" {
using warpscope::cudart::ChannelFormatDesc;
using warpscope::cudart::cudaError_t;
using warpscope::cudart::Extent;
using warpscope::cudart::Memcpy3DParms;
using warpscope::cudart::ResourceDesc;
using warpscope::cudart::TextureDesc;
cudaError_t cudaMalloc3DArray(void** array, const ChannelFormatDesc* desc, Extent extent, unsigned flags);
cudaError_t cudaMallocMipmappedArray(void** mipmap, const ChannelFormatDesc* desc, Extent extent, unsigned levels,
                                     unsigned flags);
cudaError_t cudaGetMipmappedArrayLevel(void** level_array, const void* mipmap, unsigned level);
cudaError_t cudaFreeArray(void* array);
cudaError_t cudaFreeMipmappedArray(void* mipmap);
cudaError_t cudaArrayGetInfo(ChannelFormatDesc* desc, Extent* extent, unsigned* flags, void* array);
cudaError_t cudaMemcpy3D(const Memcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const Memcpy3DParms* p, void* stream);
cudaError_t cudaCreateTextureObject(std::uint64_t* object, const ResourceDesc* res, const TextureDesc* tex,
                                    const void* view);
cudaError_t cudaDestroyTextureObject(std::uint64_t object);
cudaError_t cudaGetTextureObjectResourceDesc(ResourceDesc* res, std::uint64_t object);
cudaError_t cudaGetTextureObjectTextureDesc(TextureDesc* tex, std::uint64_t object);
cudaError_t cudaCreateSurfaceObject(std::uint64_t* object, const ResourceDesc* res);
cudaError_t cudaDestroySurfaceObject(std::uint64_t object);
cudaError_t cudaGetSurfaceObjectResourceDesc(ResourceDesc* res, std::uint64_t object);
cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(std::size_t* width, const ChannelFormatDesc* desc, int device);
}

namespace warpscope::cudart::drv {
namespace {

/// CUDA_ARRAY3D_DESCRIPTOR (CUDA_ARRAY_DESCRIPTOR is its first fields without Depth and Flags).
struct Array3DDesc {
  std::size_t width, height, depth;
  int format;  // CUarray_format
  unsigned channels;
  unsigned flags;  // CUDA_ARRAY3D_LAYERED 1, SURFACE_LDST 2, CUBEMAP 4, TEXTURE_GATHER 8: cudaArray*'s
};
static_assert(sizeof(Array3DDesc) == 40);
struct ArrayDesc {
  std::size_t width, height;
  int format;
  unsigned channels;
};
static_assert(sizeof(ArrayDesc) == 24);

/// CUDA_RESOURCE_DESC.
struct CuResourceDesc {
  int type;  // CU_RESOURCE_TYPE_ARRAY 0, MIPMAPPED_ARRAY 1, LINEAR 2, PITCH2D 3: cudaResourceType's
  union {
    void* array;
    struct {
      std::uint64_t ptr;
      int format;
      unsigned channels;
      std::size_t bytes;
    } linear;
    struct {
      std::uint64_t ptr;
      int format;
      unsigned channels;
      std::size_t width, height, pitch;
    } pitch2d;
    int reserved[32];
  } res;
  unsigned flags;
};
static_assert(sizeof(CuResourceDesc) == 144);

/// CUDA_TEXTURE_DESC.
struct CuTextureDesc {
  int address[3];  // CUaddress_mode: cudaTextureAddressMode's numbers
  int filter;      // CUfilter_mode: cudaTextureFilterMode's
  unsigned flags;  // CU_TRSF_*
  unsigned max_anisotropy;
  int mipmap_filter;
  float mipmap_bias, min_lod, max_lod;
  float border[4];
  int reserved[12];
};
static_assert(sizeof(CuTextureDesc) == 104);
constexpr unsigned kReadAsInteger = 0x01, kNormalizedCoordinates = 0x02, kSrgb = 0x10, kNoTrilinear = 0x20,
                   kSeamlessCubemap = 0x40;

/// CUarray_format and channel count -> cudaChannelFormatDesc; false for a format warpscope has no
/// texel for (the block-compressed, NV12 and packed formats).
bool channel_desc(int format, unsigned channels, ChannelFormatDesc* d) {
  int bits = 0, kind = 0;  // cudaChannelFormatKindSigned 0, Unsigned 1, Float 2
  switch (format) {
    case 0x01: bits = 8, kind = 1; break;
    case 0x02: bits = 16, kind = 1; break;
    case 0x03: bits = 32, kind = 1; break;
    case 0x08: bits = 8, kind = 0; break;
    case 0x09: bits = 16, kind = 0; break;
    case 0x0a: bits = 32, kind = 0; break;
    case 0x10: bits = 16, kind = 2; break;
    case 0x20: bits = 32, kind = 2; break;
    default: return false;
  }
  if (channels != 1 && channels != 2 && channels != 4) return false;
  *d = ChannelFormatDesc{bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 2 ? bits : 0, kind};
  return true;
}

/// The inverse: cudaChannelFormatDesc -> CUarray_format and channel count.
void array_format(const ChannelFormatDesc& d, int* format, unsigned* channels) {
  *channels = static_cast<unsigned>((d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0));
  const int b = d.x;
  if (d.f == 2) *format = b == 16 ? 0x10 : 0x20;
  else if (d.f == 1) *format = b == 8 ? 0x01 : b == 16 ? 0x02 : 0x03;
  else *format = b == 8 ? 0x08 : b == 16 ? 0x09 : 0x0a;
}

CUresult bad_format(const char* api, int format, unsigned channels) {
  Runtime::get().note(fmt::format("{}: array format {:#x} with {} channels is not one warpscope holds (8-, 16- or "
                                  "32-bit integers, half or float, 1, 2 or 4 channels)",
                                  api, format, channels));
  return kCuInvalidValue;
}

CUresult create_array(const char* api, void** array, const Array3DDesc& d) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (array == nullptr) return kCuInvalidValue;
  ChannelFormatDesc c{};
  if (!channel_desc(d.format, d.channels, &c)) return bad_format(api, d.format, d.channels);
  return via_runtime([&] { return cudaMalloc3DArray(array, &c, Extent{d.width, d.height, d.depth}, d.flags); });
}

CUresult describe_array(Array3DDesc* d, void* array) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (d == nullptr) return kCuInvalidValue;
  ChannelFormatDesc c{};
  Extent x{};
  unsigned flags = 0;
  if (via_runtime([&] { return cudaArrayGetInfo(&c, &x, &flags, array); }) != kCuSuccess) return kCuInvalidHandle;
  array_format(c, &d->format, &d->channels);
  d->width = x.width;
  d->height = x.height;
  d->depth = x.depth;
  d->flags = flags;
  return kCuSuccess;
}

/// The bytes of one element of `array`, 0 when it is no array.
std::size_t element_bytes(void* array) {
  ChannelFormatDesc c{};
  Extent x{};
  unsigned flags = 0;
  if (via_runtime([&] { return cudaArrayGetInfo(&c, &x, &flags, array); }) != kCuSuccess) return 0;
  return static_cast<std::size_t>((c.x + c.y + c.z + c.w) / 8);
}

/// One side of a CUDA_MEMCPY3D as the runtime's: an array at an element position, or memory at a
/// byte position with a pitch; false when the memory type is unknown.
bool side(const Memcpy3D::Side& s, std::size_t elem, void** array, Pos* pos, PitchedPtr* p, int* where) {
  *where = s.type;  // CUmemorytype: HOST 1, DEVICE 2, ARRAY 3, UNIFIED 4
  if (s.type == 3) {
    *array = s.array;
    *pos = Pos{s.x_bytes / elem, s.y, s.z};
    return true;
  }
  const char* base = s.type == 1 ? static_cast<const char*>(s.host) : reinterpret_cast<const char*>(s.device);
  if (s.type < 1 || s.type > 4) return false;
  *p = PitchedPtr{const_cast<char*>(base), s.pitch, s.pitch, s.height};
  *pos = Pos{s.x_bytes, s.y, s.z};
  return true;
}

}  // namespace

CUresult copy_3d(const Memcpy3D* c, void* stream, bool async) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (c == nullptr || c->src.lod != 0 || c->dst.lod != 0) return kCuInvalidValue;
  std::size_t elem = 1;
  for (const Memcpy3D::Side* s : {&c->src, &c->dst}) {
    if (s->type != 3) continue;
    elem = element_bytes(s->array);
    if (elem == 0) return kCuInvalidHandle;
  }
  // Positions and the width inside an array are whole elements.
  if (c->width_bytes % elem != 0 || (c->src.type == 3 && c->src.x_bytes % elem != 0) ||
      (c->dst.type == 3 && c->dst.x_bytes % elem != 0))
    return kCuInvalidValue;
  Memcpy3DParms p{};
  int src_where = 0, dst_where = 0;
  if (!side(c->src, elem, &p.srcArray, &p.srcPos, &p.srcPtr, &src_where) ||
      !side(c->dst, elem, &p.dstArray, &p.dstPos, &p.dstPtr, &dst_where))
    return kCuInvalidValue;
  const bool arrays = src_where == 3 || dst_where == 3;
  p.extent = Extent{arrays ? c->width_bytes / elem : c->width_bytes, c->height, c->depth};
  const bool dev_src = src_where == 2 || src_where == 3, dev_dst = dst_where == 2 || dst_where == 3;
  p.kind = src_where == 4 || dst_where == 4 ? kDefault
           : dev_src && dev_dst             ? kDeviceToDevice
           : dev_src                        ? kDeviceToHost
           : dev_dst                        ? kHostToDevice
                                            : kHostToHost;
  return via_runtime([&] { return async ? cudaMemcpy3DAsync(&p, stream) : cudaMemcpy3D(&p); });
}

namespace {

/// cuMemcpyHtoA and friends: `bytes` from a byte offset of a 1-D array (or the rows of a 2-D
/// one, row after row) through the 3-D copy, one row piece at a time.
CUresult copy_linear_array(void* array, std::size_t offset, Memcpy3D::Side other, std::size_t bytes, bool to_array,
                           void* stream, bool async) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Array3DDesc d{};
  if (CUresult e = describe_array(&d, array); e != kCuSuccess) return e;
  const std::size_t row = d.width * static_cast<std::size_t>(element_bytes(array));
  std::size_t done = 0;
  while (done < bytes) {
    const std::size_t at = offset + done, x = at % row, y = at / row;
    if (y >= std::max<std::size_t>(d.height, 1)) return kCuInvalidValue;
    const std::size_t n = std::min(bytes - done, row - x);
    Memcpy3D c{};
    Memcpy3D::Side arr{};
    arr.type = 3;
    arr.array = array;
    arr.x_bytes = x;
    arr.y = y;
    Memcpy3D::Side lin = other;
    if (lin.type == 1) lin.host = static_cast<const char*>(other.host) + done;
    else lin.device = other.device + done;
    lin.pitch = n;
    c.src = to_array ? lin : arr;
    c.dst = to_array ? arr : lin;
    c.width_bytes = n;
    c.height = 1;
    c.depth = 1;
    if (CUresult e = copy_3d(&c, stream, async); e != kCuSuccess) return e;
    done += n;
  }
  return kCuSuccess;
}

Memcpy3D::Side host_side(const void* p) {
  Memcpy3D::Side s{};
  s.type = 1;
  s.host = p;
  return s;
}
Memcpy3D::Side device_side(std::uint64_t p) {
  Memcpy3D::Side s{};
  s.type = 2;
  s.device = p;
  return s;
}

/// CUDA_RESOURCE_DESC -> cudaResourceDesc.
CUresult resource(const CuResourceDesc* r, ResourceDesc* out) {
  if (r == nullptr) return kCuInvalidValue;
  *out = ResourceDesc{};
  out->resType = r->type;
  out->flags = r->flags;
  switch (r->type) {
    case 0: out->res.array.array = r->res.array; return kCuSuccess;
    case 1: out->res.mipmap.mipmap = r->res.array; return kCuSuccess;
    case 2:
      if (!channel_desc(r->res.linear.format, r->res.linear.channels, &out->res.linear.desc))
        return bad_format("cuTexObjectCreate", r->res.linear.format, r->res.linear.channels);
      out->res.linear.devPtr = reinterpret_cast<void*>(r->res.linear.ptr);
      out->res.linear.sizeInBytes = r->res.linear.bytes;
      return kCuSuccess;
    case 3:
      if (!channel_desc(r->res.pitch2d.format, r->res.pitch2d.channels, &out->res.pitch2D.desc))
        return bad_format("cuTexObjectCreate", r->res.pitch2d.format, r->res.pitch2d.channels);
      out->res.pitch2D.devPtr = reinterpret_cast<void*>(r->res.pitch2d.ptr);
      out->res.pitch2D.width = r->res.pitch2d.width;
      out->res.pitch2D.height = r->res.pitch2d.height;
      out->res.pitch2D.pitchInBytes = r->res.pitch2d.pitch;
      return kCuSuccess;
    default: return kCuInvalidValue;
  }
}

/// cudaResourceDesc -> CUDA_RESOURCE_DESC.
void resource_back(const ResourceDesc& r, CuResourceDesc* out) {
  *out = CuResourceDesc{};
  out->type = r.resType;
  out->flags = r.flags;
  if (r.resType == kResArray) out->res.array = r.res.array.array;
  if (r.resType == kResMipmappedArray) out->res.array = r.res.mipmap.mipmap;
  if (r.resType == kResLinear) {
    out->res.linear.ptr = reinterpret_cast<std::uintptr_t>(r.res.linear.devPtr);
    array_format(r.res.linear.desc, &out->res.linear.format, &out->res.linear.channels);
    out->res.linear.bytes = r.res.linear.sizeInBytes;
  }
  if (r.resType == kResPitch2D) {
    out->res.pitch2d.ptr = reinterpret_cast<std::uintptr_t>(r.res.pitch2D.devPtr);
    array_format(r.res.pitch2D.desc, &out->res.pitch2d.format, &out->res.pitch2d.channels);
    out->res.pitch2d.width = r.res.pitch2D.width;
    out->res.pitch2d.height = r.res.pitch2D.height;
    out->res.pitch2d.pitch = r.res.pitch2D.pitchInBytes;
  }
}

/// The format bits of the resource (8, 16, 32) and whether they are integers, for the read mode.
bool integer_below_32(const ResourceDesc& r) {
  const ChannelFormatDesc* d = r.resType == kResLinear ? &r.res.linear.desc
                               : r.resType == kResPitch2D ? &r.res.pitch2D.desc
                                                          : nullptr;
  ChannelFormatDesc c{};
  if (d == nullptr) {
    Extent x{};
    unsigned flags = 0;
    void* a = r.res.array.array;
    if (r.resType == kResMipmappedArray &&
        via_runtime([&] { return cudaGetMipmappedArrayLevel(&a, r.res.mipmap.mipmap, 0); }) != kCuSuccess)
      return false;
    if (via_runtime([&] { return cudaArrayGetInfo(&c, &x, &flags, a); }) != kCuSuccess) return false;
    d = &c;
  }
  return d->f != 2 && d->x < 32;
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Arrays -------------------------------------------------------------------------------------

WS_DRV CUresult cuArrayCreate_v2(void** array, const ArrayDesc* d) {
  if (d == nullptr) return kCuInvalidValue;
  return create_array("cuArrayCreate", array, Array3DDesc{d->width, d->height, 0, d->format, d->channels, 0});
}
WS_DRV CUresult cuArray3DCreate_v2(void** array, const Array3DDesc* d) {
  if (d == nullptr) return kCuInvalidValue;
  return create_array("cuArray3DCreate", array, *d);
}
WS_DRV CUresult cuArrayGetDescriptor_v2(ArrayDesc* d, void* array) {
  if (d == nullptr) return kCuInvalidValue;
  Array3DDesc full{};
  if (CUresult e = describe_array(&full, array); e != kCuSuccess) return e;
  *d = ArrayDesc{full.width, full.height, full.format, full.channels};
  return kCuSuccess;
}
WS_DRV CUresult cuArray3DGetDescriptor_v2(Array3DDesc* d, void* array) { return describe_array(d, array); }
WS_DRV CUresult cuArrayDestroy(void* array) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaFreeArray(array); });
}
WS_DRV CUresult cuMipmappedArrayCreate(void** mipmap, const Array3DDesc* d, unsigned levels) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (mipmap == nullptr || d == nullptr) return kCuInvalidValue;
  ChannelFormatDesc c{};
  if (!channel_desc(d->format, d->channels, &c)) return bad_format("cuMipmappedArrayCreate", d->format, d->channels);
  return via_runtime(
      [&] { return cudaMallocMipmappedArray(mipmap, &c, Extent{d->width, d->height, d->depth}, levels, d->flags); });
}
WS_DRV CUresult cuMipmappedArrayGetLevel(void** level, void* mipmap, unsigned index) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaGetMipmappedArrayLevel(level, mipmap, index); });
}
WS_DRV CUresult cuMipmappedArrayDestroy(void* mipmap) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaFreeMipmappedArray(mipmap); });
}

WS_DRV CUresult cuDeviceGetTexture1DLinearMaxWidth(std::size_t* width, int format, unsigned channels, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  ChannelFormatDesc c{};
  if (!channel_desc(format, channels, &c)) return bad_format("cuDeviceGetTexture1DLinearMaxWidth", format, channels);
  return via_runtime([&] { return cudaDeviceGetTexture1DLinearMaxWidth(width, &c, dev); });
}

// ---- Copies with arrays and 3-D copies ----------------------------------------------------------

WS_DRV CUresult cuMemcpy3D_v2(const Memcpy3D* c) { return copy_3d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy3D_v2_ptds(const Memcpy3D* c) { return copy_3d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy3DAsync_v2(const Memcpy3D* c, void* s) { return copy_3d(c, s, true); }
WS_DRV CUresult cuMemcpy3DAsync_v2_ptsz(const Memcpy3D* c, void* s) {
  return copy_3d(c, const_cast<void*>(canonical_stream(s, true)), true);
}

// caveat: a 2-D array's bytes are counted from its first row on, row after row
WS_DRV CUresult cuMemcpyHtoA_v2(void* dst, std::size_t offset, const void* src, std::size_t n) {
  return copy_linear_array(dst, offset, host_side(src), n, true, nullptr, false);
}
WS_DRV CUresult cuMemcpyHtoA_v2_ptds(void* dst, std::size_t offset, const void* src, std::size_t n) {
  return cuMemcpyHtoA_v2(dst, offset, src, n);
}
WS_DRV CUresult cuMemcpyHtoAAsync_v2(void* dst, std::size_t offset, const void* src, std::size_t n, void* s) {
  return copy_linear_array(dst, offset, host_side(src), n, true, s, true);
}
WS_DRV CUresult cuMemcpyHtoAAsync_v2_ptsz(void* dst, std::size_t offset, const void* src, std::size_t n, void* s) {
  return cuMemcpyHtoAAsync_v2(dst, offset, src, n, const_cast<void*>(canonical_stream(s, true)));
}
// caveat: a 2-D array's bytes are counted from its first row on, row after row
WS_DRV CUresult cuMemcpyAtoH_v2(void* dst, void* src, std::size_t offset, std::size_t n) {
  return copy_linear_array(src, offset, host_side(dst), n, false, nullptr, false);
}
WS_DRV CUresult cuMemcpyAtoH_v2_ptds(void* dst, void* src, std::size_t offset, std::size_t n) {
  return cuMemcpyAtoH_v2(dst, src, offset, n);
}
WS_DRV CUresult cuMemcpyAtoHAsync_v2(void* dst, void* src, std::size_t offset, std::size_t n, void* s) {
  return copy_linear_array(src, offset, host_side(dst), n, false, s, true);
}
WS_DRV CUresult cuMemcpyAtoHAsync_v2_ptsz(void* dst, void* src, std::size_t offset, std::size_t n, void* s) {
  return cuMemcpyAtoHAsync_v2(dst, src, offset, n, const_cast<void*>(canonical_stream(s, true)));
}
// caveat: a 2-D array's bytes are counted from its first row on, row after row
WS_DRV CUresult cuMemcpyDtoA_v2(void* dst, std::size_t offset, std::uint64_t src, std::size_t n) {
  return copy_linear_array(dst, offset, device_side(src), n, true, nullptr, false);
}
WS_DRV CUresult cuMemcpyDtoA_v2_ptds(void* dst, std::size_t offset, std::uint64_t src, std::size_t n) {
  return cuMemcpyDtoA_v2(dst, offset, src, n);
}
// caveat: a 2-D array's bytes are counted from its first row on, row after row
WS_DRV CUresult cuMemcpyAtoD_v2(std::uint64_t dst, void* src, std::size_t offset, std::size_t n) {
  return copy_linear_array(src, offset, device_side(dst), n, false, nullptr, false);
}
WS_DRV CUresult cuMemcpyAtoD_v2_ptds(std::uint64_t dst, void* src, std::size_t offset, std::size_t n) {
  return cuMemcpyAtoD_v2(dst, src, offset, n);
}
// caveat: 1-D arrays (or 2-D ones' bytes row after row), staged through device memory
WS_DRV CUresult cuMemcpyAtoA_v2(void* dst, std::size_t dst_offset, void* src, std::size_t src_offset, std::size_t n) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  std::uint64_t stage = 0;
  if (CUresult e = via_runtime([&] { return cudaMalloc(reinterpret_cast<void**>(&stage), std::max<std::size_t>(n, 1)); });
      e != kCuSuccess)
    return e;
  CUresult e = copy_linear_array(src, src_offset, device_side(stage), n, false, nullptr, false);
  if (e == kCuSuccess) e = copy_linear_array(dst, dst_offset, device_side(stage), n, true, nullptr, false);
  via_runtime([&] { return cudaFree(reinterpret_cast<void*>(stage)); });
  return e;
}
WS_DRV CUresult cuMemcpyAtoA_v2_ptds(void* dst, std::size_t dst_offset, void* src, std::size_t src_offset, std::size_t n) {
  return cuMemcpyAtoA_v2(dst, dst_offset, src, src_offset, n);
}

// ---- Texture and surface objects ----------------------------------------------------------------

WS_DRV CUresult cuTexObjectCreate(std::uint64_t* object, const CuResourceDesc* res, const CuTextureDesc* tex,
                                  const void* view) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (object == nullptr || tex == nullptr) return kCuInvalidValue;
  ResourceDesc r{};
  if (CUresult e = resource(res, &r); e != kCuSuccess) return e;
  TextureDesc t{};
  for (int k = 0; k < 3; ++k) t.addressMode[k] = tex->address[k];
  t.filterMode = tex->filter;
  // Without CU_TRSF_READ_AS_INTEGER 8- and 16-bit integers are read as floats in [0, 1] ([-1, 1]).
  t.readMode = (tex->flags & kReadAsInteger) == 0 && integer_below_32(r) ? 1 : 0;
  t.sRGB = (tex->flags & kSrgb) != 0;
  for (int k = 0; k < 4; ++k) t.borderColor[k] = tex->border[k];
  t.normalizedCoords = (tex->flags & kNormalizedCoordinates) != 0;
  t.maxAnisotropy = tex->max_anisotropy;
  t.mipmapFilterMode = tex->mipmap_filter;
  t.mipmapLevelBias = tex->mipmap_bias;
  t.minMipmapLevelClamp = tex->min_lod;
  t.maxMipmapLevelClamp = tex->max_lod;
  t.disableTrilinearOptimization = (tex->flags & kNoTrilinear) != 0;
  t.seamlessCubemap = (tex->flags & kSeamlessCubemap) != 0;
  return via_runtime([&] { return cudaCreateTextureObject(object, &r, &t, view); });
}
WS_DRV CUresult cuTexObjectDestroy(std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDestroyTextureObject(object); });
}
WS_DRV CUresult cuTexObjectGetResourceDesc(CuResourceDesc* out, std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (out == nullptr) return kCuInvalidValue;
  ResourceDesc r{};
  if (CUresult e = via_runtime([&] { return cudaGetTextureObjectResourceDesc(&r, object); }); e != kCuSuccess) return e;
  resource_back(r, out);
  return kCuSuccess;
}
WS_DRV CUresult cuTexObjectGetTextureDesc(CuTextureDesc* out, std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (out == nullptr) return kCuInvalidValue;
  TextureDesc t{};
  if (CUresult e = via_runtime([&] { return cudaGetTextureObjectTextureDesc(&t, object); }); e != kCuSuccess) return e;
  *out = CuTextureDesc{};
  for (int k = 0; k < 3; ++k) out->address[k] = t.addressMode[k];
  out->filter = t.filterMode;
  out->flags = (t.readMode == 0 ? kReadAsInteger : 0u) | (t.normalizedCoords != 0 ? kNormalizedCoordinates : 0u) |
               (t.sRGB != 0 ? kSrgb : 0u) | (t.disableTrilinearOptimization != 0 ? kNoTrilinear : 0u) |
               (t.seamlessCubemap != 0 ? kSeamlessCubemap : 0u);
  out->max_anisotropy = t.maxAnisotropy;
  out->mipmap_filter = t.mipmapFilterMode;
  out->mipmap_bias = t.mipmapLevelBias;
  out->min_lod = t.minMipmapLevelClamp;
  out->max_lod = t.maxMipmapLevelClamp;
  for (int k = 0; k < 4; ++k) out->border[k] = t.borderColor[k];
  return kCuSuccess;
}
WS_DRV CUresult cuSurfObjectCreate(std::uint64_t* object, const CuResourceDesc* res) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (object == nullptr) return kCuInvalidValue;
  ResourceDesc r{};
  if (CUresult e = resource(res, &r); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaCreateSurfaceObject(object, &r); });
}
WS_DRV CUresult cuSurfObjectDestroy(std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDestroySurfaceObject(object); });
}
WS_DRV CUresult cuSurfObjectGetResourceDesc(CuResourceDesc* out, std::uint64_t object) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (out == nullptr) return kCuInvalidValue;
  ResourceDesc r{};
  if (CUresult e = via_runtime([&] { return cudaGetSurfaceObjectResourceDesc(&r, object); }); e != kCuSuccess) return e;
  resource_back(r, out);
  return kCuSuccess;
}
