// The subcommands' help names every built-in profile (src/arch/profiles/*.json) where it takes one.
// Expected: the ten profiles in the order the built-ins are kept (compute capability, then name:
// g80 1.0, tesla 1.3, fermi 2.0, kepler 3.5, maxwell 5.2, pascal 6.0, volta 7.0, ampere 8.0, then
// h200 and hopper, both 9.0), and every profile file's name among them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

const std::string kExe = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
const std::string kNames = "g80 tesla fermi kepler maxwell pascal volta ampere h200 hopper";

std::string help_of(const std::string& subcommand) {
  std::string out;
  FILE* p = popen((kExe + " " + subcommand + " --help 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

TEST(CliHelp, ArchOptionsNameEveryBuiltInProfile) {
  if (!std::filesystem::exists(kExe)) GTEST_SKIP() << kExe << " not built";
  for (const char* sub : {"run", "sanitize", "pattern"}) {
    const std::string help = help_of(sub);
    EXPECT_NE(help.find("Architecture profile (" + kNames + ")"), std::string::npos) << sub << "\n" << help;
  }
  const std::string compare = help_of("compare");
  EXPECT_NE(compare.find("The profile for derived metrics: " + kNames + " (default: the prediction's own)"),
            std::string::npos)
      << compare;
  for (const auto& f : std::filesystem::directory_iterator(std::string(WARPSCOPE_SOURCE_DIR) + "/src/arch/profiles"))
    EXPECT_NE((" " + kNames + " ").find(" " + f.path().stem().string() + " "), std::string::npos) << f.path();
}

}  // namespace
