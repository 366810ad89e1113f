// GPU code that warpscope cannot interpret: shared libraries that ship their kernels as machine
// code (SASS) only, without PTX. NVIDIA's closed libraries (cuBLAS, cuFFT, cuSPARSE, ...) are
// such libraries, and they also carry their own CUDA runtime, which talks to the GPU driver
// directly, around warpscope's libcudart.so.13. A library built with `-cudart shared` registers
// its fatbinaries with warpscope like the program does; its modules then fail to load
// (Runtime::ensure_loaded), and the message names the library.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace warpscope::cudart {

struct ClosedLibrary {
  std::string name;            // "libcublas.so.13"
  std::string path;            // as the loader found it
  std::set<unsigned> sm_archs;   // the machine code's targets seen (90 for sm_90)
  std::set<unsigned> ptx_archs;  // the PTX's (120 for compute_120)
  bool own_runtime = false;      // does not register its kernels through libcudart.so.13
};

/// The shared object an address belongs to: its path, or "" for the program itself (or when the
/// loader does not know the address).
std::string library_of(const void* address);

/// The loaded shared objects, other than the program and this library, that have GPU code (a
/// `.nv_fatbin` section) but carry their own CUDA runtime: warpscope never sees their kernels.
std::vector<ClosedLibrary> find_closed_libraries();

/// What to tell the user about one: which library, and why its kernels cannot run here.
std::string closed_library_message(const ClosedLibrary& lib);

/// "sm_50, sm_90, sm_120" for a set of targets (prefix "sm_" or "compute_").
std::string list_archs(const std::set<unsigned>& archs, const char* prefix = "sm_");

}  // namespace warpscope::cudart
