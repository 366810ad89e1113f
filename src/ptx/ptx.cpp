#include "ptx/ptx.hpp"

#include "ptx/builder.hpp"
#include "ptx/parser.hpp"
#include "ptx/verifier.hpp"

namespace warpscope::ptx {

Module load_module(std::string_view text, std::string_view origin) {
  syntax::Module syn = parse(text, origin);
  Module m = build_module(syn, origin);
  verify(m);
  return m;
}

}  // namespace warpscope::ptx
