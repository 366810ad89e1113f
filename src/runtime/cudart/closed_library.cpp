// Finding the loaded libraries whose GPU code is machine code only (closed_library.hpp).
#include "runtime/cudart/closed_library.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/fatbin.hpp"

namespace warpscope::cudart {
namespace {

namespace fatbin = warpscope::runtime::fatbin;

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) != nullptr ? std::string(buf) : path;
}

/// A section of an ELF file on disk, read through its section headers only (the libraries in
/// question are hundreds of megabytes: nothing else is read).
struct SectionInfo {
  std::uint64_t addr = 0, size = 0;
  bool found = false;
};

bool read_at(int fd, void* buf, std::size_t n, std::uint64_t off) {
  return pread(fd, buf, n, static_cast<off_t>(off)) == static_cast<ssize_t>(n);
}

SectionInfo find_section(const std::string& path, const char* wanted) {
  SectionInfo out;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  Elf64_Ehdr eh{};
  if (read_at(fd, &eh, sizeof eh, 0) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum > 0 &&
      eh.e_shnum < 65535 && eh.e_shstrndx < eh.e_shnum) {
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    if (read_at(fd, sh.data(), sh.size() * sizeof(Elf64_Shdr), eh.e_shoff)) {
      const Elf64_Shdr& names = sh[eh.e_shstrndx];
      std::vector<char> strtab(std::min<std::uint64_t>(names.sh_size, 1 << 20) + 1, '\0');
      if (read_at(fd, strtab.data(), strtab.size() - 1, names.sh_offset)) {
        for (const Elf64_Shdr& s : sh) {
          if (s.sh_name < strtab.size() && std::strcmp(strtab.data() + s.sh_name, wanted) == 0 &&
              (s.sh_flags & SHF_ALLOC) != 0) {
            out = SectionInfo{s.sh_addr, s.sh_size, true};
            break;
          }
        }
      }
    }
  }
  close(fd);
  return out;
}

/// The machine-code and PTX targets of a `.nv_fatbin` section in memory. Reads the headers of
/// the first fatbins only (a library's fatbins are built alike).
void scan_fatbins(const std::uint8_t* bytes, std::size_t size, std::set<unsigned>* archs, std::set<unsigned>* ptx,
                  bool* readable) {
  *readable = false;
  std::size_t at = 0;
  for (int count = 0; count < 64 && at + fatbin::kHeaderBytes <= size; ++count) {
    std::uint32_t magic = 0;
    std::memcpy(&magic, bytes + at, sizeof magic);
    if (magic != fatbin::kFatbinMagic) {
      at += 8;  // padding between fatbins
      continue;
    }
    try {
      const std::size_t n = fatbin::size_from_header(bytes + at, "library");
      if (n > size - at) return;
      const fatbin::Fatbin fb = fatbin::parse(std::span<const std::uint8_t>(bytes + at, n), "library");
      *readable = true;
      for (const fatbin::Entry& e : fb.entries) {
        if (e.is_ptx()) ptx->insert(e.arch);
        if (e.is_elf()) archs->insert(e.arch);
      }
      at += (n + 7) / 8 * 8;
    } catch (const Error&) {
      return;
    }
  }
}

struct Scan {
  std::string self;  // this library's path
  std::vector<ClosedLibrary> found;
};

int visit(struct dl_phdr_info* info, std::size_t, void* data) {
  auto* scan = static_cast<Scan*>(data);
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;  // the program (or vdso)
  const std::string path = info->dlpi_name;
  if (real(path) == scan->self) return 0;
  const SectionInfo s = find_section(path, ".nv_fatbin");
  if (!s.found || s.size == 0) return 0;
  // The section lies in a loaded segment: read it where the loader put it.
  bool mapped = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && s.addr >= ph.p_vaddr && s.addr + s.size <= ph.p_vaddr + ph.p_memsz) mapped = true;
  }
  if (!mapped) return 0;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(info->dlpi_addr + s.addr);
  ClosedLibrary lib;
  bool readable = false;
  scan_fatbins(bytes, s.size, &lib.sm_archs, &lib.ptx_archs, &readable);
  if (!readable) return 0;
  lib.name = base_name(path);
  lib.path = path;
  // A library built with -cudart shared imports __cudaRegisterFatBinary from libcudart.so.13;
  // one that carries NVIDIA's runtime inside does not.
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  lib.own_runtime = true;
  if (handle != nullptr) {
    Dl_info where{};
    void* sym = dlsym(handle, "__cudaRegisterFatBinary");
    if (sym != nullptr && dladdr(sym, &where) != 0 && where.dli_fname != nullptr && real(where.dli_fname) == scan->self) {
      lib.own_runtime = false;
    }
    dlclose(handle);
  }
  if (lib.own_runtime) scan->found.push_back(std::move(lib));
  return 0;
}

/// Says once, when this library is loaded, which closed libraries the program uses: they may
/// fail before the program ever calls warpscope's runtime.
__attribute__((constructor)) void announce_closed_libraries() {
  for (const ClosedLibrary& lib : find_closed_libraries()) {
    std::fprintf(stderr, "warpscope: %s\n", closed_library_message(lib).c_str());
  }
}

}  // namespace

std::string library_of(const void* address) {
  Dl_info where{};
  if (dladdr(address, &where) == 0 || where.dli_fname == nullptr) return "";
  // The program's own objects: dladdr reports the program's path.
  if (real(where.dli_fname) == real("/proc/self/exe")) return "";
  return where.dli_fname;
}

std::vector<ClosedLibrary> find_closed_libraries() {
  Scan scan;
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void*>(&find_closed_libraries), &self) != 0 && self.dli_fname != nullptr) {
    scan.self = real(self.dli_fname);
  }
  dl_iterate_phdr(visit, &scan);
  return scan.found;
}

std::string list_archs(const std::set<unsigned>& archs, const char* prefix) {
  std::string out;
  for (unsigned a : archs) out += fmt::format("{}{}{}", out.empty() ? "" : ", ", prefix, a);
  return out.empty() ? "an unknown GPU" : out;
}

std::string closed_library_message(const ClosedLibrary& lib) {
  const std::string code =
      lib.ptx_archs.empty()
          ? fmt::format("as machine code only (SASS for {}), without PTX", list_archs(lib.sm_archs))
          : fmt::format("as machine code (SASS for {}) with PTX for {} only", list_archs(lib.sm_archs),
                        list_archs(lib.ptx_archs, "compute_"));
  if (!lib.own_runtime) {
    return fmt::format("{} ({}) ships its GPU kernels {}; warpscope interprets PTX, so the kernels of {} cannot run "
                       "under warpscope; rebuild {} from source with PTX (nvcc -cudart shared -arch=sm_90 ...) if you "
                       "can",
                       lib.name, lib.path, code, lib.name, lib.name);
  }
  return fmt::format(
      "{} ({}) is a closed CUDA library: it ships its GPU kernels {}, and it carries its own CUDA runtime, which "
      "calls the GPU driver directly instead of warpscope's libcudart.so.13. warpscope interprets PTX kernels that "
      "reach its runtime, so the kernels of {} cannot run under warpscope: its calls fail here (warpscope's "
      "libcuda.so.1 lacks the driver's private interfaces that runtime needs, cuGetExportTable) or would reach a "
      "real GPU that knows nothing of warpscope's memory. Programs that use closed libraries such as "
      "cuBLAS or cuFFT cannot be run under warpscope",
      lib.name, lib.path, code, lib.name);
}

}  // namespace warpscope::cudart
