// docs/ptx_coverage.tsv, the list of the PTX ISA's instructions with warpscope's status for each,
// against the opcode decoder: a supported (or partial, or refused-exec) instruction's sample
// opcode decodes, a refused one is kUnsupported naming it; every opcode head of the decoder's
// table has a line; docs/ptx.md's coverage table is the list's rendering.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "ptx/opcodes.hpp"

namespace warpscope::ptx {
namespace {

struct Entry {
  std::string name, status, sample, detail;
};

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<Entry> entries() {
  std::vector<Entry> out;
  std::istringstream in(read(std::string(WARPSCOPE_SOURCE_DIR) + "/docs/ptx_coverage.tsv"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Entry e;
    std::istringstream fields(line);
    std::getline(fields, e.name, '\t');
    std::getline(fields, e.status, '\t');
    std::getline(fields, e.sample, '\t');
    std::getline(fields, e.detail);
    out.push_back(e);
  }
  return out;
}

/// The markdown table docs/ptx.md holds between its coverage markers.
std::string render(const std::vector<Entry>& list) {
  std::string s = "| instruction | status | sample | test, or why not |\n|---|---|---|---|\n";
  for (const Entry& e : list) s += "| `" + e.name + "` | " + e.status + " | `" + e.sample + "` | " + e.detail + " |\n";
  return s;
}

TEST(PtxCoverage, EveryLineAgreesWithTheDecoder) {
  const std::vector<Entry> list = entries();
  ASSERT_GT(list.size(), 150u);
  std::set<std::string> names;
  for (const Entry& e : list) {
    SCOPED_TRACE(e.name + " (" + e.sample + ")");
    EXPECT_TRUE(names.insert(e.name).second) << "listed twice";
    EXPECT_TRUE(e.sample == e.name || e.sample.starts_with(e.name + ".") || e.name.find('.') != std::string::npos)
        << "the sample is not a form of the instruction";
    EXPECT_FALSE(e.detail.empty());
    Instruction in;
    if (e.status == "refused") {
      try {
        decode_opcode(e.sample, in, "coverage", PtxPos{1, 1});
        ADD_FAILURE() << "decodes, but the list says the front end refuses it";
      } catch (const Error& err) {
        EXPECT_EQ(err.kind(), ErrorKind::kUnsupported);
      }
    } else {
      EXPECT_TRUE(e.status == "supported" || e.status == "partial" || e.status == "refused-exec") << e.status;
      EXPECT_NO_THROW(decode_opcode(e.sample, in, "coverage", PtxPos{1, 1}));
    }
  }
}

TEST(PtxCoverage, EveryOpcodeOfTheDecoderIsListed) {
  std::set<std::string> listed;
  for (const Entry& e : entries()) listed.insert(e.name);
  // Table heads that are spellings of a listed instruction.
  const std::set<std::string> aliases = {"bar.sync", "bar.arrive", "bar.red", "barrier.sync", "barrier.arrive",
                                         "barrier.red", "fence.proxy", "fence.mbarrier_init", "shfl", "vote",
                                         "match", "redux", "elect", "barrier.cluster.arrive", "barrier.cluster.wait",
                                         "setmaxnreg.inc", "setmaxnreg.dec", "griddepcontrol.launch_dependents",
                                         "griddepcontrol.wait", "cp.async.wait_all"};
  for (std::string_view h : opcode_heads()) {
    const std::string head(h);
    EXPECT_TRUE(listed.count(head) || aliases.count(head)) << "'" << head << "' has no line in docs/ptx_coverage.tsv";
  }
}

TEST(PtxCoverage, DocsTableIsTheListsRendering) {
  const std::string path = std::string(WARPSCOPE_SOURCE_DIR) + "/docs/ptx.md";
  std::string doc = read(path);
  const std::string begin = "<!-- coverage table: generated from docs/ptx_coverage.tsv -->\n", end = "<!-- end of coverage table -->";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/ptx.md lacks the coverage markers";
  ASSERT_NE(e, std::string::npos);
  const std::string want = render(entries());
  const std::string have = doc.substr(b + begin.size(), e - b - begin.size());
  if (have != want && std::getenv("WARPSCOPE_UPDATE_DOCS") != nullptr) {
    doc.replace(b + begin.size(), e - b - begin.size(), want);
    std::ofstream(path) << doc;
    return;
  }
  EXPECT_EQ(have, want) << "run WARPSCOPE_UPDATE_DOCS=1 ctest -R PtxCoverage to regenerate docs/ptx.md's table";
}

}  // namespace
}  // namespace warpscope::ptx
