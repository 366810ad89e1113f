// The rest of the memory API (docs/runtime.md "Every runtime call"): 3-D allocations and
// memsets, peer copies and peer access on a one-GPU system, managed-memory range
// queries, and the device queries of a one-GPU system (the batch copies and hints: api_batch.cpp).
#include <cctype>
#include <cstring>
#include <set>
#include <string>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

extern "C" {
cudaError_t cudaMemcpy3DAsync(const Memcpy3DParms* p, void* stream);
cudaError_t cudaMemcpy3D(const Memcpy3DParms* p);
cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int device);
cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, unsigned, void*);
cudaError_t cudaStreamAttachMemAsync(void*, void*, std::size_t, unsigned);
}

namespace {

constexpr int kCopyDefault = 4;  // cudaMemcpyDefault

/// cudaMemcpy3DPeerParms.
struct Memcpy3DPeerParms {
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  int srcDevice;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  int dstDevice;
  Extent extent;
};
static_assert(sizeof(Memcpy3DPeerParms) == 168);

cudaError_t peer_parms(const Memcpy3DPeerParms* p, Memcpy3DParms* out) {
  if (p == nullptr) return kErrInvalidValue;
  if (p->srcDevice != 0 || p->dstDevice != 0) return kErrInvalidDevice;
  *out = Memcpy3DParms{p->srcArray, p->srcPos, p->srcPtr, p->dstArray, p->dstPos, p->dstPtr, p->extent, kCopyDefault};
  return kSuccess;
}

/// cudaMemset3D(Async): one 2-D memset per slice (a memset node per slice under capture).
cudaError_t memset_3d(const char* api, PitchedPtr p, int value, Extent e, void* stream, bool async) {
  return call(api, [&](Runtime& rt) {
    bool captured = false;
    if (async) {
      if (cudaError_t err = async_check(rt, stream, &captured); err != kSuccess) return err;
    } else if (cudaError_t err = sync_check(rt, api); err != kSuccess) {
      return err;
    }
    if (e.width == 0 || e.height == 0 || e.depth == 0) return kSuccess;
    if (e.width > p.pitch) return kErrInvalidValue;
    const std::size_t slice = p.pitch * (p.ysize != 0 ? p.ysize : e.height);
    for (std::size_t z = 0; z < e.depth; ++z) {
      char* base = static_cast<char*>(p.ptr) + z * slice;
      if (captured) {
        MemsetParams m{base, p.pitch, static_cast<unsigned>(value & 0xff), 1, e.width, e.height};
        if (cudaError_t err = capture_memset(rt, stream, m); err != kSuccess) return err;
        continue;
      }
      for (std::size_t y = 0; y < e.height; ++y) {
        if (cudaError_t err = rt.set(base + y * p.pitch, value, e.width); err != kSuccess) return err;
      }
    }
    return kSuccess;
  });
}

std::set<void*>& notification_handles() {
  static auto& s = *new std::set<void*>;
  return s;
}

}  // namespace

WS_API cudaError_t cudaMalloc3D(PitchedPtr* p, Extent e) {
  if (p == nullptr) return call("cudaMalloc3D", [](Runtime&) { return kErrInvalidValue; });
  const std::size_t pitch = e.width == 0 ? 0 : pitch_for(e.width);
  void* ptr = nullptr;
  const cudaError_t err = cudaMalloc(&ptr, pitch * e.height * e.depth);
  if (err == kSuccess) *p = PitchedPtr{ptr, pitch, e.width, e.height};
  return err;
}

WS_API cudaError_t cudaMemset3D(PitchedPtr p, int value, Extent e) {
  return memset_3d("cudaMemset3D", p, value, e, nullptr, false);
}
WS_API cudaError_t cudaMemset3D_ptds(PitchedPtr p, int value, Extent e) { return cudaMemset3D(p, value, e); }
WS_API cudaError_t cudaMemset3DAsync(PitchedPtr p, int value, Extent e, void* stream) {
  return memset_3d("cudaMemset3DAsync", p, value, e, stream, true);
}
WS_API cudaError_t cudaMemset3DAsync_ptsz(PitchedPtr p, int value, Extent e, void* stream) {
  return cudaMemset3DAsync(p, value, e, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMemcpy3DPeer(const Memcpy3DPeerParms* p) {
  Memcpy3DParms q{};
  if (cudaError_t e = peer_parms(p, &q); e != kSuccess) return call("cudaMemcpy3DPeer", [&](Runtime&) { return e; });
  return cudaMemcpy3D(&q);
}
WS_API cudaError_t cudaMemcpy3DPeer_ptds(const Memcpy3DPeerParms* p) { return cudaMemcpy3DPeer(p); }
WS_API cudaError_t cudaMemcpy3DPeerAsync(const Memcpy3DPeerParms* p, void* stream) {
  Memcpy3DParms q{};
  if (cudaError_t e = peer_parms(p, &q); e != kSuccess) return call("cudaMemcpy3DPeerAsync", [&](Runtime&) { return e; });
  return cudaMemcpy3DAsync(&q, stream);
}
WS_API cudaError_t cudaMemcpy3DPeerAsync_ptsz(const Memcpy3DPeerParms* p, void* stream) {
  return cudaMemcpy3DPeerAsync(p, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_dev, const void* src, int src_dev, std::size_t bytes,
                                       void* stream) {
  if (dst_dev != 0 || src_dev != 0) return call("cudaMemcpyPeerAsync", [](Runtime&) { return kErrInvalidDevice; });
  return cudaMemcpyAsync(dst, src, bytes, kDeviceToDevice, stream);
}

// One GPU: no device is a peer of device 0 (cudaDeviceCanAccessPeer answers 0).
WS_API cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
  return call("cudaDeviceEnablePeerAccess", [&](Runtime&) {
    if (peer != 0) return kErrInvalidDevice;  // no such device
    return flags != 0 ? kErrInvalidValue : kErrInvalidDevice;  // a device is not its own peer
  });
}

WS_API cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  // No device is a peer: peer access was never enabled to any (device 0 is not its own peer).
  return call("cudaDeviceDisablePeerAccess", [&](Runtime&) { return peer == 0 ? kErrInvalidDevice : kErrInvalidDevice; });
}

WS_API cudaError_t cudaDeviceGetP2PAttribute(int* value, int attr, int src, int dst) {
  return call("cudaDeviceGetP2PAttribute", [&](Runtime&) {
    if (value == nullptr || attr < 1 || attr > 5) return kErrInvalidValue;
    (void)src;
    (void)dst;
    return kErrInvalidDevice;  // src and dst must be two different devices
  });
}

WS_API cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned* caps, const int* ops, unsigned count, int src, int dst) {
  return call("cudaDeviceGetP2PAtomicCapabilities", [&](Runtime&) {
    if (caps == nullptr || (count != 0 && ops == nullptr)) return kErrInvalidValue;
    (void)src;
    (void)dst;
    return kErrInvalidDevice;
  });
}

// caveat: no atomic operation is native between host and device (an H100 on PCIe: cudaDevAttrHostNativeAtomicSupported 0)
WS_API cudaError_t cudaDeviceGetHostAtomicCapabilities(unsigned* caps, const int* ops, unsigned count, int device) {
  return call("cudaDeviceGetHostAtomicCapabilities", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (caps == nullptr || (count != 0 && ops == nullptr)) return kErrInvalidValue;
    for (unsigned i = 0; i < count; ++i) caps[i] = 0;
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(std::size_t* width, const ChannelFormatDesc* desc, int device) {
  return call("cudaDeviceGetTexture1DLinearMaxWidth", [&](Runtime& rt) {
    if (device != 0) return kErrInvalidDevice;
    if (width == nullptr || desc == nullptr) return kErrInvalidValue;
    int v = 0;
    device_attribute(rt.profile(), 69, &v);  // cudaDevAttrMaxTexture1DLinearWidth
    *width = static_cast<std::size_t>(v);
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* id) {
  if (device == nullptr || id == nullptr) return call("cudaDeviceGetByPCIBusId", [](Runtime&) { return kErrInvalidValue; });
  char ours[32] = {};
  if (cudaError_t e = cudaDeviceGetPCIBusId(ours, sizeof ours, 0); e != kSuccess) return e;
  return call("cudaDeviceGetByPCIBusId", [&](Runtime&) {
    // "[domain]:[bus]:[device].[function]" or "[bus]:[device].[function]", any case.
    auto lower = [](std::string s) {
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    };
    const std::string want = lower(id), full = lower(ours);
    const bool match = want == full || (full.size() > 5 && want == full.substr(full.find(':') + 1)) ||
                       (full.find(':') != std::string::npos && want == "0000" + full.substr(full.find(':')));
    if (!match) return kErrInvalidDevice;
    *device = 0;
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope) {
  return call("cudaDeviceFlushGPUDirectRDMAWrites", [&](Runtime&) {
    // Every write is complete when issued: nothing to flush.
    return target == 0 && (scope == 100 || scope == 200) ? kSuccess : kErrInvalidValue;
  });
}

// caveat: registered, never called: the device's memory is never over budget here
WS_API cudaError_t cudaDeviceRegisterAsyncNotification(int device, void* callback, void* user, void** handle) {
  return call("cudaDeviceRegisterAsyncNotification", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (callback == nullptr || handle == nullptr) return kErrInvalidValue;
    *handle = new char{0};
    notification_handles().insert(*handle);
    (void)user;
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceUnregisterAsyncNotification(int device, void* handle) {
  return call("cudaDeviceUnregisterAsyncNotification", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (notification_handles().erase(handle) == 0) return kErrInvalidValue;
    delete static_cast<char*>(handle);
    return kSuccess;
  });
}

WS_API cudaError_t cudaSetValidDevices(int* list, int len) {
  return call("cudaSetValidDevices", [&](Runtime&) {
    if (len < 0 || (len > 0 && list == nullptr)) return kErrInvalidValue;
    for (int i = 0; i < len; ++i)
      if (list[i] != 0) return kErrInvalidDevice;
    return kSuccess;
  });
}

// caveat: managed memory takes no advice here: read-mostly 0, no preferred, accessed-by or prefetch location
WS_API cudaError_t cudaMemRangeGetAttribute(void* data, std::size_t size, int attr, const void* ptr, std::size_t count) {
  return call("cudaMemRangeGetAttribute", [&](Runtime& rt) {
    if (data == nullptr || size == 0 || count == 0) return kErrInvalidValue;
    if (rt.classify(ptr, count) != Runtime::Where::kHostVisible) return kErrInvalidValue;  // managed memory only
    switch (attr) {
      case 1:  // cudaMemRangeAttributeReadMostly
      case 5:  // PreferredLocationType: cudaMemLocationTypeInvalid
      case 7:  // LastPrefetchLocationType
        if (size != 4) return kErrInvalidValue;
        *static_cast<int*>(data) = 0;
        return kSuccess;
      case 2:  // PreferredLocation: cudaInvalidDeviceId
      case 4:  // LastPrefetchLocation
      case 6:  // PreferredLocationId
      case 8:  // LastPrefetchLocationId
        if (size != 4) return kErrInvalidValue;
        *static_cast<int*>(data) = -2;
        return kSuccess;
      case 3:  // AccessedBy: no device; the rest of the array cudaInvalidDeviceId
        if (size % 4 != 0) return kErrInvalidValue;
        for (std::size_t i = 0; i < size / 4; ++i) static_cast<int*>(data)[i] = -2;
        return kSuccess;
      default: return kErrInvalidValue;
    }
  });
}

WS_API cudaError_t cudaMemRangeGetAttributes(void** data, std::size_t* sizes, int* attrs, std::size_t n,
                                             const void* ptr, std::size_t count) {
  if (data == nullptr || sizes == nullptr || attrs == nullptr || n == 0) {
    return call("cudaMemRangeGetAttributes", [](Runtime&) { return kErrInvalidValue; });
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (cudaError_t e = cudaMemRangeGetAttribute(data[i], sizes[i], attrs[i], ptr, count); e != kSuccess) return e;
  }
  return kSuccess;
}

WS_API cudaError_t cudaMemPrefetchAsync_ptsz(const void* p, std::size_t n, int loc, unsigned flags, void* stream) {
  return cudaMemPrefetchAsync(p, n, loc, flags, const_cast<void*>(canonical_stream(stream, true)));
}
WS_API cudaError_t cudaStreamAttachMemAsync_ptsz(void* stream, void* p, std::size_t n, unsigned flags) {
  return cudaStreamAttachMemAsync(const_cast<void*>(canonical_stream(stream, true)), p, n, flags);
}
