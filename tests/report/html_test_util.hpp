// What the HTML tests share: counting a string, the attributes of tags, an element by its id.
#pragma once

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace warpscope::report {

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// The attributes of every opening tag that starts with `tag_start` (e.g. `<tr class="src-line"`).
inline std::vector<std::map<std::string, std::string>> tags(const std::string& html, const std::string& tag_start) {
  std::vector<std::map<std::string, std::string>> out;
  static const std::regex attr(R"re(([a-z-]+)="([^"]*)")re");
  for (auto at = html.find(tag_start); at != std::string::npos; at = html.find(tag_start, at + 1)) {
    std::string tag = html.substr(at, html.find('>', at) - at);
    std::map<std::string, std::string> attrs;
    for (std::sregex_iterator it(tag.begin(), tag.end(), attr), end; it != end; ++it)
      attrs[(*it)[1].str()] = (*it)[2].str();
    out.push_back(attrs);
  }
  return out;
}

/// The text from `<tag ... id="id"` to the matching closing tag (no nesting of the same tag).
inline std::string element(const std::string& html, const std::string& tag, const std::string& id) {
  auto at = html.find(" id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  auto start = html.rfind("<" + tag + " ", at);
  if (start == std::string::npos || html.find('>', start) < at) return "";
  auto end = html.find("</" + tag + ">", start);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace warpscope::report
