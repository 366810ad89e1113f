#include "sanitize_xml.hpp"

namespace warpscope::cli {

namespace {

void element(std::string& out, const std::string& name, const nlohmann::ordered_json& v, int depth) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  if (v.is_array()) {
    for (const auto& e : v) element(out, name, e, depth);
    return;
  }
  if (v.is_object()) {
    out += indent + "<" + name + ">\n";
    for (const auto& [k, e] : v.items()) element(out, k, e, depth + 1);
    out += indent + "</" + name + ">\n";
    return;
  }
  if (v.is_null()) {
    out += indent + "<" + name + "/>\n";
    return;
  }
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  out += indent + "<" + name + ">" + xml_escape(text) + "</" + name + ">\n";
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string without_parameters(const std::string& name) {
  std::string s = name;
  for (const char* q : {" const", " volatile", " &&", " &"}) {
    const std::string t = q;
    if (s.size() > t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0 && s[s.size() - t.size() - 1] == ')')
      s.resize(s.size() - t.size());
  }
  if (s.empty() || s.back() != ')') return name;
  // The '(' that opens the last list (parameter types may hold parentheses of their own).
  int depth = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) return i == 0 ? name : s.substr(0, i);
  }
  return name;
}

std::string sanitize_xml(const std::vector<nlohmann::ordered_json>& records) {
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  if (records.empty()) return out + "<ComputeSanitizerOutput/>\n";
  out += "<ComputeSanitizerOutput>\n";
  for (const auto& r : records) element(out, "record", r, 1);
  out += "</ComputeSanitizerOutput>\n";
  return out;
}

}  // namespace warpscope::cli
