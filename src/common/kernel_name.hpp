// Kernel names as Nsight Compute shows and matches them (`--kernel-name-base`):
//  - mangled:   the symbol, e.g. _Z12load_defaultIhEvPKT_PS0_xxxx
//  - demangled: ncu's demangled form, which is not libstdc++'s: qualifiers first and a space
//               before the declarator ("const float *", "unsigned int *const *"), a function
//               template's parameters written with its template parameters (T1, T2, ...) and its
//               return type first, e.g. "void load_default<unsigned char>(const T1 *, T1 *, long
//               long, long long, long long, long long)"; anonymous namespaces are "<unnamed>"
//  - function:  the name alone, without scope, template arguments or parameters ("load_default")
// The rules were read off the kernel names of Nsight Compute 2025.3's CSV exports in
// tests/hw/data/h100 next to the symbols of the same kernels (tests/common/kernel_name_test.cpp).
// Symbols that are not C++ (extern "C" kernels) are their own three names.
#pragma once

#include <string>

namespace warpscope {

struct KernelNames {
  std::string mangled;
  std::string function;
  std::string demangled;
  /// True when `demangled` is ncu's form; false when the symbol uses a construct these rules do
  /// not cover (lambdas, packs, function types, ...): then `demangled` is libstdc++'s
  /// demangling and `function` is read from it.
  bool ncu_form = true;
};

KernelNames kernel_names(const std::string& symbol);

}  // namespace warpscope
