// The driver API's linker (drv.hpp): cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete,
// cuLinkDestroy over PTX inputs. warpscope runs PTX, so the linked image is not a cubin: one PTX
// input is handed back as its PTX text, several as warpscope's own image of the modules, which
// cuModuleLoadData (and cuLibraryLoadData) link as a device link's translation units are
// (Device::link_ptx: extern functions and variables resolved, docs/runtime.md "Relocatable device
// code"). Machine code (a cubin), fatbinaries, host objects, libraries and NVVM IR are refused with
// a message, as cuModuleLoadData refuses a cubin. JIT options change nothing.
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart::drv {
namespace {

struct LinkState {
  std::vector<PtxPart> parts;
  std::string image;  // cuLinkComplete's, alive until cuLinkDestroy
};

std::set<LinkState*>& states() {
  static std::set<LinkState*>& s = *new std::set<LinkState*>;  // never destroyed
  return s;
}

LinkState* state_of(void* handle) {
  auto* s = static_cast<LinkState*>(handle);
  return states().count(s) != 0 ? s : nullptr;
}

// The image of several modules: this line, their count, then for each "ARCH ORIGIN_BYTES
// PTX_BYTES\n" followed by the origin and the PTX text.
constexpr std::string_view kImageMagic = "warpscope cuLinkComplete image\n";

const char* input_name(int type) {
  switch (type) {
    case 0: return "machine code (CU_JIT_INPUT_CUBIN)";
    case 2: return "a fatbinary (CU_JIT_INPUT_FATBINARY)";
    case 3: return "a host object (CU_JIT_INPUT_OBJECT)";
    case 4: return "a library of host objects (CU_JIT_INPUT_LIBRARY)";
    case 5: return "NVVM IR (CU_JIT_INPUT_NVVM)";
    default: return nullptr;
  }
}

CUresult add(void* handle, int type, const void* data, std::size_t size, const std::string& name) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  LinkState* s = state_of(handle);
  if (s == nullptr) return kCuInvalidHandle;
  if (data == nullptr || size == 0) return kCuInvalidValue;
  if (type != 1) {  // CU_JIT_INPUT_PTX
    const char* what = input_name(type);
    if (what == nullptr) return kCuInvalidValue;
    rt.note(fmt::format("cuLinkAddData: {} is {}, which warpscope cannot link: it links PTX. Add the PTX instead "
                        "(nvcc -ptx, CU_JIT_INPUT_PTX)",
                        name, what));
    return type == 0 ? kCuNoBinaryForGpu : kCuNotSupported;
  }
  const char* text = static_cast<const char*>(data);
  std::string ptx(text, strnlen(text, size));
  static const std::regex target(R"(\.target\s+sm_(\d+))");
  std::smatch m;
  if (ptx.find(".version") == std::string::npos || !std::regex_search(ptx, m, target)) {
    rt.note(fmt::format("cuLinkAddData: {} is not PTX text (no .version and .target sm_XX)", name));
    return kCuInvalidPtx;
  }
  const int arch = std::stoi(m[1].str());
  s->parts.push_back(PtxPart{std::move(ptx), arch, fmt::format("{} (sm_{} PTX text)", name, arch)});
  return kCuSuccess;
}

}  // namespace

bool link_image_parts(const void* image, std::vector<PtxPart>* parts) {
  const char* p = static_cast<const char*>(image);
  if (std::strncmp(p, kImageMagic.data(), kImageMagic.size()) != 0) return false;
  p += kImageMagic.size();
  char* end = nullptr;
  const unsigned long count = std::strtoul(p, &end, 10);
  p = end + 1;
  parts->clear();
  for (unsigned long i = 0; i < count; ++i) {
    const int arch = static_cast<int>(std::strtol(p, &end, 10));
    const std::size_t origin_bytes = std::strtoull(end, &end, 10);
    const std::size_t ptx_bytes = std::strtoull(end, &end, 10);
    p = end + 1;
    std::string origin(p, origin_bytes);
    std::string ptx(p + origin_bytes, ptx_bytes);
    p += origin_bytes + ptx_bytes;
    parts->push_back(PtxPart{std::move(ptx), arch, std::move(origin)});
  }
  return true;
}

}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

WS_DRV CUresult cuLinkCreate_v2(unsigned, void*, void**, void** state) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (state == nullptr) return kCuInvalidValue;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  auto* s = new LinkState;
  states().insert(s);
  *state = s;
  return kCuSuccess;
}
WS_DRV CUresult cuLinkCreate(unsigned n, void* options, void** values, void** state) {
  return cuLinkCreate_v2(n, options, values, state);
}

WS_DRV CUresult cuLinkAddData_v2(void* state, int type, void* data, std::size_t size, const char* name, unsigned,
                                 void*, void**) {
  return add(state, type, data, size, name != nullptr ? name : "an unnamed input");
}
WS_DRV CUresult cuLinkAddData(void* state, int type, void* data, std::size_t size, const char* name, unsigned n,
                              void* options, void** values) {
  return cuLinkAddData_v2(state, type, data, size, name, n, options, values);
}

WS_DRV CUresult cuLinkAddFile_v2(void* state, int type, const char* path, unsigned, void*, void**) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (path == nullptr) return kCuInvalidValue;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Runtime::get().note(fmt::format("cuLinkAddFile: cannot read {}", path));
    return kCuFileNotFound;
  }
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return add(state, type, data.data(), data.size(), path);
}
WS_DRV CUresult cuLinkAddFile(void* state, int type, const char* path, unsigned n, void* options, void** values) {
  return cuLinkAddFile_v2(state, type, path, n, options, values);
}

// caveat: the image is PTX (one input) or warpscope's own image of the PTX modules, which
//   cuModuleLoadData links; an unresolved symbol is reported there, not here
WS_DRV CUresult cuLinkComplete(void* state, void** image, std::size_t* size) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (image == nullptr || size == nullptr) return kCuInvalidValue;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  LinkState* s = state_of(state);
  if (s == nullptr) return kCuInvalidHandle;
  if (s->parts.empty()) return kCuInvalidValue;
  if (s->parts.size() == 1) {
    s->image = s->parts[0].ptx;
  } else {
    s->image = fmt::format("{}{}\n", kImageMagic, s->parts.size());
    for (const PtxPart& p : s->parts)
      s->image += fmt::format("{} {} {}\n{}{}", p.ptx_arch, p.origin.size(), p.ptx.size(), p.origin, p.ptx);
  }
  s->image.push_back('\0');  // PTX text is read up to its terminator
  *image = s->image.data();
  *size = s->image.size();
  return kCuSuccess;
}

WS_DRV CUresult cuLinkDestroy(void* state) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  LinkState* s = state_of(state);
  if (s == nullptr) return kCuInvalidHandle;
  states().erase(s);
  delete s;
  return kCuSuccess;
}
