// Linking PTX modules into one program: what nvlink does to the translation units of a program
// built with relocatable device code (nvcc -rdc=true), done on the IR (docs/runtime.md,
// "Relocatable device code").
//
// Contract:
//  - The result holds every kept function and variable of every module, with every SymbolRef,
//    Relocation, SourceLoc file and inline site renumbered; it is verified again (verifier.hpp).
//  - Global symbols are the module-scope .global/.const variables and the functions that are
//    defined with .visible, .weak or .common linkage. A `.extern` variable (.global/.const) and a
//    function declaration without a body resolve to the global definition of the same name (a
//    declaration first to a definition in its own module). `.extern .shared` arrays (dynamic shared
//    memory) stay each module's own.
//  - Two .visible definitions of one name: an error naming both modules. A .visible definition
//    wins over .weak and .common ones; among .weak ones the first module's; among .common ones the
//    largest. A name that is a variable in one module and a function in another: an error.
//  - Internal (non-visible) symbols never resolve anything and may repeat across modules (nvcc's
//    `$str` strings): they stay distinct, under their own names.
//  - An extern that nothing defines: an error naming the symbol and the modules that declare it,
//    except the functions the interpreter itself provides or rejects with its own message
//    (vprintf, __assertfail, malloc, free), which stay declarations (one per name).
//  - Errors are Error(kParse) with all the problems found, "cannot link origin: ...".
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Links `modules` (each verified, as load_module makes them) into one module named `origin`.
/// One module is linked too: its extern variables must then be defined by itself.
Module link_modules(std::vector<Module> modules, std::string_view origin);

/// The functions the interpreter provides itself when a module only declares them (src/exec,
/// decode.cpp): an unresolved declaration of one is not a link error.
/// The device runtime's dynamic-parallelism calls (CUDA 12+'s __cudaCDP2* names and the older
/// cuda* ones): kCdpParamBuffer (GetParameterBufferV2: func, grid, block, shared), kCdpParamBufferV1
/// (GetParameterBuffer: alignment, size), kCdpLaunch (LaunchDeviceV2: buffer, stream), kCdpLaunchV1
/// (LaunchDevice: func, buffer, grid, block, shared, stream), kCdpNoError (GetLastError,
/// PeekAtLastError, StreamDestroy, EventDestroy: cudaSuccess), kCdpStreamCreate
/// (StreamCreateWithFlags), kCdpGetDevice.
enum class RuntimeFunction : std::uint8_t {
  kNone, kVprintf, kAssertFail, kMalloc, kAlignedMalloc, kFree, kSetConditional,
  kCdpParamBuffer, kCdpParamBufferV1, kCdpLaunch, kCdpLaunchV1, kCdpNoError, kCdpStreamCreate, kCdpGetDevice
};
/// A device-runtime function warpscope knows but does not run (a __cudaCDP2 name, or the device
/// side of cudaMalloc, cudaMemcpyAsync, ...): true for names of CUDA's device runtime API.
bool device_runtime_name(std::string_view name);
RuntimeFunction runtime_function(std::string_view name);

}  // namespace warpscope::ptx
