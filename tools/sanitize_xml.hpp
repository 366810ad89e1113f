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

/// `<?xml ...?><ComputeSanitizerOutput><record>...</record>...</ComputeSanitizerOutput>`.
std::string sanitize_xml(const std::vector<nlohmann::ordered_json>& records);

/// Text with &, <, >, " and ' escaped, and control characters other than tab and newline left out
/// (XML 1.0 cannot hold them).
std::string xml_escape(const std::string& text);

}  // namespace warpscope::cli
