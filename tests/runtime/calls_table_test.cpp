// docs/runtime.md's table of runtime calls ("Every runtime call") agrees with the sources: every
// name of src/runtime/cudart_exports.txt has one row; a call defined with WS_API in
// src/runtime/cudart/api_*.cpp is "implemented" (or "implemented with caveat" when a
// `// caveat:` comment precedes its definition, "refused" when a `// refused:` comment does),
// every other one is "not supported" (a generated stub). Refused and unsupported calls together
// are at most 50, and each refused one is interop or IPC (issue 29). The table is written by scripts/runtime_calls.cmake; this test reads the
// sources on its own.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
const fs::path kRoot = WARPSCOPE_SOURCE_DIR;

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::set<std::string> exported() {
  std::set<std::string> names;
  static const std::regex name(R"(^[A-Za-z_][A-Za-z0-9_]*$)");
  for (const auto& l : lines_of(kRoot / "src/runtime/cudart_exports.txt"))
    if (std::regex_match(l, name)) names.insert(l);
  return names;
}

/// Status by name from the sources: "implemented" or "implemented with caveat".
std::map<std::string, std::string> defined() {
  std::map<std::string, std::string> status;
  static const std::regex def(R"(^WS_API [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)\()");
  for (const auto& entry : fs::directory_iterator(kRoot / "src/runtime/cudart")) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("api_", 0) != 0 || entry.path().extension() != ".cpp") continue;
    bool caveat = false;
    bool refused = false;
    for (const auto& l : lines_of(entry.path())) {
      std::smatch m;
      if (l.rfind("// refused: ", 0) == 0) {
        refused = true;
      } else if (l.rfind("// caveat: ", 0) == 0) {
        caveat = true;
      } else if (caveat && l.rfind("//   ", 0) == 0) {
        // continuation of the caveat
      } else if (std::regex_search(l, m, def)) {
        status[m[1].str()] = refused ? "refused" : caveat ? "implemented with caveat" : "implemented";
        caveat = false;
        refused = false;
      } else {
        caveat = false;
        refused = false;
      }
    }
  }
  return status;
}

/// The runtime table's rows: name -> status (the driver's table follows it).
std::multimap<std::string, std::string> table() {
  std::multimap<std::string, std::string> rows;
  static const std::regex row(R"(^\| `([A-Za-z_][A-Za-z0-9_]*)` \| ([a-z ]+) \|)");
  bool inside = false;
  for (const auto& l : lines_of(kRoot / "docs/runtime.md")) {
    if (l.rfind("<!-- runtime-calls: generated", 0) == 0) inside = true;
    if (l.rfind("<!-- runtime-calls: end", 0) == 0 || l.rfind("The driver API", 0) == 0) inside = false;  // its own table
    std::smatch m;
    if (inside && std::regex_search(l, m, row)) rows.emplace(m[1].str(), m[2].str());
  }
  return rows;
}

}  // namespace

TEST(RuntimeCallsTable, EveryExportedCallHasOneRowWithItsStatus) {
  const auto names = exported();
  const auto impl = defined();
  const auto rows = table();
  ASSERT_GT(names.size(), 400u);
  for (const auto& n : names) {
    ASSERT_EQ(rows.count(n), 1u) << n << " has " << rows.count(n) << " rows in docs/runtime.md's table; "
                                 << "run cmake -DROOT=. -P scripts/runtime_calls.cmake";
    const auto it = impl.find(n);
    const std::string want = it == impl.end() ? "not supported" : it->second;
    EXPECT_EQ(rows.find(n)->second, want) << n << ": run cmake -DROOT=. -P scripts/runtime_calls.cmake";
  }
  for (const auto& [n, status] : rows) EXPECT_TRUE(names.count(n)) << n << " is in the table but not exported";
  for (const auto& [n, status] : impl) EXPECT_TRUE(names.count(n)) << n << " is defined but not exported";
}

TEST(RuntimeCallsTable, AtMostFiftyCallsDoNotWorkAndEveryRefusedOneIsInterop) {
  const auto names = exported();
  const auto impl = defined();
  std::size_t not_working = 0;
  static const std::regex interop(R"(GL|EGL|VDPAU|NvSci|External|Ipc|Graphics|Shareable|ExportPointer|ImportPointer)");
  for (const auto& n : names) {
    const auto it = impl.find(n);
    if (it == impl.end() || it->second == "refused") ++not_working;
    if (it != impl.end() && it->second == "refused") {
      EXPECT_TRUE(std::regex_search(n, interop)) << n;
    }
  }
  EXPECT_LE(not_working, 50u);
}
