#include "corpus.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef WARPSCOPE_CORPUS_PTX_DIR
#error "WARPSCOPE_CORPUS_PTX_DIR must name the folder of the PTX built from tests/corpus/kernels"
#endif

namespace corpus {

std::string ptx_path(std::string_view name) {
  // The environment variable of the same name overrides the build folder (to run the test
  // binary somewhere else).
  const char* dir = std::getenv("WARPSCOPE_CORPUS_PTX_DIR");
  const std::string folder = dir != nullptr && *dir != '\0' ? dir : WARPSCOPE_CORPUS_PTX_DIR;
  return folder + "/" + std::string(name) + ".ptx";
}

std::string read_ptx(std::string_view name) {
  const std::string path = ptx_path(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " (was it built by nvcc?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Module load(Device& device, std::string_view name) {
  return device.load_ptx(read_ptx(name), std::string(name) + ".ptx");
}

std::string describe(float v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g (0x%08" PRIx32 ")", static_cast<double>(v), bits(v));
  return text;
}

std::string describe(double v) {
  char text[80];
  std::snprintf(text, sizeof text, "%.17g (0x%016" PRIx64 ")", v, bits(v));
  return text;
}

std::string describe(std::int64_t v) { return std::to_string(v); }

std::string describe(std::uint64_t v) {
  char text[64];
  std::snprintf(text, sizeof text, "%" PRIu64 " (0x%" PRIx64 ")", v, v);
  return text;
}

}  // namespace corpus
