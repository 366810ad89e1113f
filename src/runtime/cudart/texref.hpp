// What the driver's texture and surface references (drv_texref.cpp) need from the runtime's
// arrays (api_texture.cpp) and the driver's modules (drv_module.cpp). Called under the runtime's
// lock.
#pragma once

#include <vector>

#include "warpscope/texture.hpp"

namespace warpscope::cudart {

struct ModuleRec;

/// The image of a CUDA array (cudaArray_t / CUarray) and its cudaArray* flags; false when `array`
/// names none.
bool array_image(const void* array, Image& image, unsigned& flags);
/// The levels of a mipmapped array (cudaMipmappedArray_t / CUmipmappedArray); false when none.
bool mipmap_images(const void* mipmap, std::vector<Image>& levels);

namespace drv {
/// The module record of a CUmodule made by cuModuleLoad*; nullptr when `handle` is none.
ModuleRec* driver_module(void* handle);
}  // namespace drv

}  // namespace warpscope::cudart
