// Writing the HTML report: the file names and the files. The pages are made in html_index.cpp,
// html_launch.cpp (with html_source.cpp, memory_chart.cpp, metric_groups.cpp) and
// html_compare.cpp.
#include "report/html.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "common/error.hpp"
#include "report/html_common.hpp"

namespace warpscope::report {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_launch_file(const nlohmann::json& launch, std::size_t launch_position) {
  const nlohmann::json* index = html::field(launch, "index");
  if (index && (index->is_number_unsigned() || (index->is_number_integer() && index->get<std::int64_t>() >= 0)))
    return fmt::format("launch_{}.html", html::to_u64(*index));
  return fmt::format("launch_{}.html", launch_position);
}

std::string html_compare_file(const nlohmann::json& launch, std::size_t launch_position) {
  std::string file = html_launch_file(launch, launch_position);
  return file.substr(0, file.size() - 5) + "_compare.html";
}

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(ErrorKind::kIo, "cannot write '{}': {}", path.string(), std::generic_category().message(errno));
  out << text;
  out.close();
  if (!out) fail(ErrorKind::kIo, "cannot write '{}': {}", path.string(), std::generic_category().message(errno));
}

}  // namespace

void write_html_report(const nlohmann::json& report, const std::string& dir) {
  std::filesystem::path root(dir);
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec || !std::filesystem::is_directory(root))
    fail(ErrorKind::kIo, "cannot create directory '{}': {}", dir,
         ec ? ec.message() : std::string("a file of that name exists"));
  write_file(root / "index.html", html_index_page(report));
  const nlohmann::json& launches = html::array_field(report, "launches");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    write_file(root / html_launch_file(launches[i], i), html_launch_page(report, i));
    if (!html::array_field(launches[i], "compare").empty())
      write_file(root / html_compare_file(launches[i], i), html_compare_page(report, i));
  }
}

}  // namespace warpscope::report
