// Device's texture and surface objects and image copies (include/warpscope/texture.hpp).
#include <cstring>

#include "common/error.hpp"
#include "exec/device_impl.hpp"
#include "exec/texture.hpp"
#include "warpscope/texture.hpp"

namespace warpscope {

namespace {

void check_image(const exec::GlobalMemory& mem, const Image& im, const char* what) {
  const TexelFormat& f = im.format;
  if ((f.channels != 1 && f.channels != 2 && f.channels != 4) || (f.bits != 8 && f.bits != 16 && f.bits != 32) ||
      (f.kind == ChannelKind::kFloat && f.bits == 8))
    fail(ErrorKind::kUsage, "{}: unsupported texel format ({} channels of {} bits)", what, f.channels, f.bits);
  if (im.width == 0 || im.height == 0) fail(ErrorKind::kUsage, "{}: an empty image", what);
  if (im.layout == ImageLayout::kPitch && im.pitch < std::uint64_t{im.width} * f.bytes())
    fail(ErrorKind::kUsage, "{}: pitch {} is less than a row of {} bytes", what, im.pitch, std::uint64_t{im.width} * f.bytes());
  if (mem.find(im.base, image_bytes(im)) == nullptr)
    fail(ErrorKind::kUsage, "{}: the image [0x{:x}, +{}) is not inside one allocation", what, im.base, image_bytes(im));
}

/// Calls f(device offset, box offset) for each contiguous run of a row of the box.
template <class F>
void for_row_runs(const Image& im, const Device::ImageBox& box, std::uint32_t y, std::uint32_t slice, F f) {
  const std::uint64_t texel = im.format.bytes();
  std::uint64_t done = 0;
  while (done < box.width_bytes) {
    const std::uint64_t xb = box.x_bytes + done;
    const auto xt = static_cast<std::uint32_t>(xb / texel);
    const std::uint64_t off = image_offset(im, xt, y, slice) + xb % texel;
    // Block-linear rows are contiguous over 16 bytes; the others over the whole row.
    std::uint64_t run = box.width_bytes - done;
    if (im.layout == ImageLayout::kBlockLinear) run = std::min<std::uint64_t>(run, 16 - xb % 16);
    f(off, done, run);
    done += run;
  }
}

std::uint8_t* image_memory(const exec::GlobalMemory& mem, const Image& im, const Device::ImageBox& box) {
  const std::uint64_t row = std::uint64_t{im.width} * im.format.bytes();
  if (box.x_bytes > row || box.width_bytes > row - box.x_bytes || box.y > im.height || box.height > im.height - box.y ||
      box.slice > im.slices() || box.slices > im.slices() - box.slice)
    fail(ErrorKind::kUsage, "a copy of {}x{}x{} bytes/rows/slices at ({}, {}, {}) leaves the {}x{} image of {} slices",
         box.width_bytes, box.height, box.slices, box.x_bytes, box.y, box.slice, row, im.height, im.slices());
  return mem.host_range(im.base, image_bytes(im), "image");
}

}  // namespace

std::uint64_t Device::create_texture(const Image& image, const Sampler& sampler) {
  check_image(impl_->memory, image, "texture");
  exec::TexObject o;
  o.kind = exec::TexObject::Kind::kTexture;
  o.image = image;
  o.sampler = sampler;
  return impl_->objects.add(o);
}

std::uint64_t Device::create_texture(const std::vector<Image>& levels, const Sampler& sampler) {
  if (levels.empty()) fail(ErrorKind::kUsage, "texture: a mipmapped texture without levels");
  exec::TexObject o;
  o.kind = exec::TexObject::Kind::kTexture;
  o.sampler = sampler;
  for (const Image& level : levels) {
    check_image(impl_->memory, level, "texture level");
    if (level.layout != ImageLayout::kBlockLinear || level.format.bytes() != levels[0].format.bytes())
      fail(ErrorKind::kUsage, "texture: the levels of a mipmapped texture are CUDA arrays of one format");
    o.mip.push_back(level);
    o.mip.back().levels = static_cast<std::uint32_t>(levels.size());
  }
  o.image = o.mip[0];
  if (levels.size() == 1) o.mip.clear();
  return impl_->objects.add(o);
}

std::uint64_t Device::create_surface(const Image& image) {
  check_image(impl_->memory, image, "surface");
  exec::TexObject o;
  o.kind = exec::TexObject::Kind::kSurface;
  o.image = image;
  return impl_->objects.add(o);
}

void Device::bind_texture_reference(std::uint64_t handle, const std::vector<Image>& levels, const Sampler& sampler) {
  if (levels.empty()) fail(ErrorKind::kUsage, "texture reference: no image");
  exec::TexObject o;
  o.kind = exec::TexObject::Kind::kTexture;
  o.sampler = sampler;
  for (const Image& level : levels) {
    check_image(impl_->memory, level, "texture reference");
    o.mip.push_back(level);
    o.mip.back().levels = static_cast<std::uint32_t>(levels.size());
  }
  o.image = o.mip[0];
  if (levels.size() == 1) o.mip.clear();
  impl_->objects.bind(handle, o);
}

void Device::bind_surface_reference(std::uint64_t handle, const Image& image) {
  check_image(impl_->memory, image, "surface reference");
  exec::TexObject o;
  o.kind = exec::TexObject::Kind::kSurface;
  o.image = image;
  impl_->objects.bind(handle, o);
}

void Device::unbind_reference(std::uint64_t handle, std::string_view why) { impl_->objects.unbind(handle, std::string(why)); }

void Device::destroy_texture(std::uint64_t handle) { impl_->objects.remove(handle, exec::TexObject::Kind::kTexture); }
void Device::destroy_surface(std::uint64_t handle) { impl_->objects.remove(handle, exec::TexObject::Kind::kSurface); }

bool Device::texture_info(std::uint64_t handle, Image& image, Sampler& sampler) const {
  const exec::TexObject* o = impl_->objects.find(handle);
  if (o == nullptr || o->kind != exec::TexObject::Kind::kTexture || o->reference) return false;
  image = o->image;
  sampler = o->sampler;
  return true;
}

bool Device::surface_info(std::uint64_t handle, Image& image) const {
  const exec::TexObject* o = impl_->objects.find(handle);
  if (o == nullptr || o->kind != exec::TexObject::Kind::kSurface || o->reference) return false;
  image = o->image;
  return true;
}

void Device::copy_image_to_device(const Image& image, const ImageBox& box, const void* host, std::uint64_t host_pitch,
                                  std::uint64_t host_slice_pitch) {
  std::uint8_t* dev = image_memory(impl_->memory, image, box);
  const auto* src = static_cast<const std::uint8_t*>(host);
  for (std::uint32_t s = 0; s < box.slices; ++s)
    for (std::uint32_t y = 0; y < box.height; ++y) {
      const std::uint8_t* row = src + s * host_slice_pitch + y * host_pitch;
      for_row_runs(image, box, box.y + y, box.slice + s,
                   [&](std::uint64_t off, std::uint64_t at, std::uint64_t n) {
                     std::memcpy(dev + off, row + at, n);
                     if (impl_->init) impl_->init->unpoison(image.base + off, n);  // initcheck
                   });
    }
}

void Device::copy_image_to_host(void* host, std::uint64_t host_pitch, std::uint64_t host_slice_pitch, const Image& image,
                                const ImageBox& box) {
  const std::uint8_t* dev = image_memory(impl_->memory, image, box);
  auto* dst = static_cast<std::uint8_t*>(host);
  for (std::uint32_t s = 0; s < box.slices; ++s)
    for (std::uint32_t y = 0; y < box.height; ++y) {
      std::uint8_t* row = dst + s * host_slice_pitch + y * host_pitch;
      for_row_runs(image, box, box.y + y, box.slice + s,
                   [&](std::uint64_t off, std::uint64_t at, std::uint64_t n) { std::memcpy(row + at, dev + off, n); });
    }
}

}  // namespace warpscope
