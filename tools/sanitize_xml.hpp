// `warpscope sanitize --xml --save FILE`: the printed reports as an XML document
// (docs/sanitize.md "XML output"). Each report is an ordered JSON object built where its text is
// printed (tools/sanitize_cmd.cpp); this file writes it as elements of the same names, in order:
// an object is an element holding its members, an array repeats its name once per element, a
// string or number is the element's text.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::cli {

/// `<?xml ...?><ComputeSanitizerOutput><record>...</record>...</ComputeSanitizerOutput>`; with no
/// records `<ComputeSanitizerOutput/>` (tests/hw/data/h200/sanitize/xml/xml_oob_global.xml).
std::string sanitize_xml(const std::vector<nlohmann::ordered_json>& records);

/// A demangled function name without its parameter list, as compute-sanitizer's XML names
/// functions (`where/func`, `frame/func`): "raw(int *)" -> "raw", "cudaError cudaMalloc<int>(int**,
/// unsigned long)" -> "cudaError cudaMalloc<int>" (tests/hw/data/h200/sanitize/xml). A trailing
/// " const" goes with the list; a name without one is returned as it is.
std::string without_parameters(const std::string& name);

/// Text with &, <, >, " and ' escaped, and control characters other than tab and newline left out
/// (XML 1.0 cannot hold them).
std::string xml_escape(const std::string& text);

}  // namespace warpscope::cli
