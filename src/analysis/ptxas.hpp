// ptxas resource usage: what NVIDIA's PTX assembler says a module's functions need once compiled
// to machine code for one GPU: registers, barriers, stack frame, spill stores and loads, static
// shared memory, constant banks, and its local-memory and spill warnings.
//
// PTX does not tell these: a PTX `.local` depot may live in registers after ptxas, and spills only
// exist after register allocation (../shared/design.md). So warpscope asks ptxas itself:
//
//   ptxas -arch=<target> -v -warn-lmem-usage -warn-spills -o /dev/null <module.ptx>
//
// (with Options::cubin: -lineinfo -o <cache>/<hash>.cubin instead of /dev/null)
//
// Contract:
//  - find_ptxas() looks in $CUDA_HOME/bin, then each PATH directory, then /usr/local/cuda/bin.
//    Not finding it is not an error: analyze() returns a Result with available == false and a
//    reason, and callers say so once and mark the numbers unavailable.
//  - analyze() runs ptxas without a shell (posix_spawn), captures its stdout and stderr, and
//    throws Error(kIo) with ptxas's own message when it exits non-zero (PTX it rejects, a target
//    it does not know). There is no timeout.
//  - Results are cached per (ptxas path, its size and mtime, target, options, PTX text) under
//    cache_dir()/ptxas/<16 hex digits of FNV-1a 64>.txt. The cache holds ptxas's output text,
//    parsed again on every hit, so a parser change needs no cache invalidation. Writes are atomic
//    (temporary file, then rename); an unreadable or unwritable cache only costs a ptxas run.
//  - parse() never throws and never reads out of bounds, whatever the text: lines it does not
//    understand are kept in Usage::unparsed. Every number comes from ptxas's text (nothing is
//    estimated); what ptxas does not print stays at its default (-1 registers, 0 bytes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::analysis::ptxas {

/// One function of the module as ptxas -v reports it: a kernel (.entry) or a .func ptxas did not
/// inline. ptxas 13 prints registers and barriers for entries only; a .func gets its "Function
/// properties" (stack frame, spills) and the entries that call it include its needs.
struct FunctionUsage {
  std::string name;                 // mangled, as in the PTX
  bool entry = false;               // "Compiling entry function 'NAME' for 'sm_XX'"
  std::string target;               // "sm_90", from that line (empty for a .func)
  int registers = -1;               // "Used N registers"; -1: not printed
  int barriers = 0;                 // "used N barriers"
  std::uint64_t stack_frame_bytes = 0;       // "N bytes stack frame": local memory per thread
  std::uint64_t spill_store_bytes = 0;       // "N bytes spill stores"
  std::uint64_t spill_load_bytes = 0;        // "N bytes spill loads"
  std::uint64_t cumulative_stack_bytes = 0;  // "N bytes cumulative stack size" (with callees)
  std::uint64_t shared_bytes = 0;            // "N bytes smem": static shared memory
  std::uint64_t lmem_bytes = 0;              // "N bytes lmem" (older ptxas versions)
  std::map<int, std::uint64_t> const_bank_bytes;  // "N bytes cmem[K]" (older ptxas versions)
  // -warn-lmem-usage: "Local memory used for function 'NAME', size of stack frame: N bytes".
  std::optional<std::uint64_t> lmem_warning_frame_bytes;
  // -warn-spills: "Registers are spilled to local memory in function 'NAME', ...".
  bool spill_warning = false;
  std::vector<std::string> warnings;  // every warning naming this function, without "ptxas warning :"
};

/// What one ptxas -v run printed, by function in order of first mention.
struct Usage {
  std::uint64_t gmem_bytes = 0;                          // "N bytes gmem" (module globals)
  std::map<int, std::uint64_t> module_const_bank_bytes;  // "N bytes gmem, N bytes cmem[K]" (older)
  std::vector<FunctionUsage> functions;
  std::vector<std::string> warnings;  // every "ptxas warning :" message, in order
  std::vector<std::string> errors;    // "ptxas error :" / "ptxas fatal :" messages
  std::vector<std::string> unparsed;  // non-empty lines the parser did not recognise

  /// The function named `name`, or nullptr.
  const FunctionUsage* find(std::string_view name) const;
};

/// Parses ptxas -v output (stdout and stderr together). Never throws.
Usage parse(std::string_view text);

/// Where to look for ptxas. from_environment() reads $CUDA_HOME and $PATH.
struct SearchPaths {
  std::string cuda_home;                              // $CUDA_HOME: <cuda_home>/bin/ptxas first
  std::string path;                                   // $PATH: each directory next
  std::string fallback = "/usr/local/cuda/bin/ptxas"; // last
  static SearchPaths from_environment();
};

/// A ptxas executable, or why there is none.
struct Located {
  std::string path;    // empty when not found
  std::string reason;  // when not found: what was looked at
  bool found() const { return !path.empty(); }
};
Located find_ptxas(const SearchPaths& where = SearchPaths::from_environment());

/// warpscope's cache directory: $WARPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/warpscope, else
/// $HOME/.cache/warpscope (the rule `warpscope run` uses for compiled programs, tools/run_cmd.cpp).
std::string cache_dir();

/// FNV-1a, 64 bits: a hash that is the same in every build and on every machine (std::hash is not).
std::uint64_t fnv1a64(std::string_view data, std::uint64_t h = 14695981039346656037ull);

struct Options {
  std::string ptxas;        // the executable; empty: find_ptxas()
  std::string cache_dir;    // empty: cache_dir() + "/ptxas"; the cache is this folder itself
  bool use_cache = true;
  // Also keep the machine code: ptxas runs with -lineinfo and writes a cubin (cached next to the
  // text as <hash>.cubin), returned in Result::cubin for src/analysis/sass.hpp. -lineinfo only adds
  // the line tables; the code and the -v figures are the same.
  bool cubin = false;
  // --compile-only (-c): the PTX of one translation unit of relocatable device code, whose
  // `.extern` functions and variables other units define (nvcc -rdc=true compiles each so).
  bool compile_only = false;
};

struct Result {
  bool available = false;          // false: no ptxas; unavailable_reason says why
  std::string unavailable_reason;
  std::string ptxas_path;
  bool from_cache = false;
  std::string output;              // ptxas's text
  Usage usage;
  std::vector<std::uint8_t> cubin; // Options::cubin: the machine code
};

/// Runs ptxas on `ptx` for `target` ("sm_90"), or reads the cached answer. Throws Error(kUsage)
/// for a target that is not sm_<digits>[a|f], Error(kIo) when ptxas cannot be started or exits
/// non-zero (the message holds ptxas's output).
Result analyze(std::string_view ptx, std::string_view target, const Options& options = {});

}  // namespace warpscope::analysis::ptxas
