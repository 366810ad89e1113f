// The HTML report in a real browser: headless Chromium (Debian's `chromium` package) renders the
// pages written for sample_report.hpp; the DOM it builds must hold the launches table, the source
// rows, the advice and the pictures, and the screenshot must show a page (decoded here: a PNG of
// the window's size that is not one flat colour).
//
// Chromium is required, not optional: without it these tests fail and say so (CI installs it).
// Run them alone with `ctest -R report_chromium`; each page costs one Chromium start (~2 s).
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "report/html.hpp"
#include "sample_report.hpp"

namespace warpscope::report {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 1200, kHeight = 2000;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// $WARPSCOPE_CHROMIUM, else `chromium` or `chromium-browser` on PATH; "" when there is none.
std::string find_chromium() {
  if (const char* env = std::getenv("WARPSCOPE_CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    for (const char* name : {"chromium", "chromium-browser"}) {
      fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  return "";
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A scratch folder for the pages and for Chromium's profile, HOME and caches.
class Scratch {
 public:
  Scratch() {
    path_ = fs::temp_directory_path() / ("warpscope_chromium_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Rendered {
  std::string dom;  // --dump-dom
  fs::path png;     // --screenshot
  std::string log;  // Chromium's stderr, for failure messages
};

/// Renders `page` once: the DOM on stdout and the screenshot in one Chromium run (a second run for
/// the screenshot only if this Chromium does not do both at once).
Rendered render(const std::string& chromium, const fs::path& page, const fs::path& work) {
  Rendered r;
  r.png = work / (page.stem().string() + ".png");
  fs::path dom = work / (page.stem().string() + ".dom.html");
  fs::path log = work / (page.stem().string() + ".log");
  std::string env = "HOME=" + quote(work.string()) + " XDG_CONFIG_HOME=" + quote((work / "config").string()) +
                    " XDG_CACHE_HOME=" + quote((work / "cache").string());
  std::string common = "timeout 60 " + quote(chromium) +
                       " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
                       " --no-default-browser-check --disable-extensions --hide-scrollbars"
                       " --user-data-dir=" + quote((work / "profile").string()) +
                       " --window-size=" + std::to_string(kWidth) + "," + std::to_string(kHeight);
  std::string url = quote("file://" + fs::absolute(page).string());
  std::string both = env + " " + common + " --screenshot=" + quote(r.png.string()) + " --dump-dom " + url + " >" +
                     quote(dom.string()) + " 2>" + quote(log.string());
  int rc = std::system(both.c_str());
  r.dom = read(dom);
  r.log = "exit status " + std::to_string(rc) + "\n" + read(log);
  if (!fs::exists(r.png)) {
    std::string shot = env + " " + common + " --screenshot=" + quote(r.png.string()) + " " + url + " >/dev/null 2>>" +
                       quote(log.string());
    rc = std::system(shot.c_str());
    r.log = "exit status " + std::to_string(rc) + "\n" + read(log);
  }
  return r;
}

/// An 8-bit RGB or RGBA, non-interlaced PNG decoded to RGB; what Chromium writes.
struct Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  std::string error;
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

Image decode_png(const std::string& file) {
  Image img;
  if (file.size() < 33 || file.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return img.error = "not a PNG", img;
  std::string idat;
  unsigned depth = 0, colour = 0, interlace = 0;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    std::uint32_t len = be32(file, at);
    std::string type = file.substr(at + 4, 4);
    if (at + 12 + len > file.size()) return img.error = "truncated chunk " + type, img;
    if (type == "IHDR") {
      img.width = be32(file, at + 8);
      img.height = be32(file, at + 12);
      depth = std::uint8_t(file[at + 16]);
      colour = std::uint8_t(file[at + 17]);
      interlace = std::uint8_t(file[at + 20]);
    } else if (type == "IDAT") {
      idat += file.substr(at + 8, len);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0)
    return img.error = "unsupported PNG (depth " + std::to_string(depth) + ", colour type " + std::to_string(colour) +
                       ", interlace " + std::to_string(interlace) + ")",
           img;
  std::size_t bpp = colour == 6 ? 4 : 3, stride = img.width * bpp;
  std::vector<std::uint8_t> raw(img.height * (stride + 1));
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK ||
      raw_len != raw.size())
    return img.error = "bad image data", img;
  // Undo the per-row filters (PNG spec, section 9).
  std::vector<std::uint8_t> pixels(img.height * stride), zero(stride, 0);
  for (std::uint32_t y = 0; y < img.height; ++y) {
    std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = &raw[y * (stride + 1) + 1];
    std::uint8_t* out = &pixels[y * stride];
    const std::uint8_t* up = y ? &pixels[(y - 1) * stride] : zero.data();
    for (std::size_t x = 0; x < stride; ++x) {
      int a = x >= bpp ? out[x - bpp] : 0, b = up[x], c = x >= bpp ? up[x - bpp] : 0;
      int predictor = 0;
      switch (filter) {
        case 0: predictor = 0; break;
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) / 2; break;
        case 4: {
          int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: return img.error = "bad filter " + std::to_string(filter), img;
      }
      out[x] = static_cast<std::uint8_t>(in[x] + predictor);
    }
  }
  img.rgb.reserve(std::size_t(img.width) * img.height * 3);
  for (std::size_t i = 0; i < pixels.size(); i += bpp) img.rgb.insert(img.rgb.end(), &pixels[i], &pixels[i] + 3);
  return img;
}

struct Colours {
  std::size_t distinct = 0;
  double most_common_share = 1;  // of all pixels
  std::size_t reddish = 0;       // pixels of the line shading (red over white)
};

Colours colours(const Image& img) {
  std::unordered_map<std::uint32_t, std::size_t> histogram;
  Colours c;
  for (std::size_t i = 0; i + 2 < img.rgb.size(); i += 3) {
    int r = img.rgb[i], g = img.rgb[i + 1], b = img.rgb[i + 2];
    ++histogram[(std::uint32_t(r) << 16) | (std::uint32_t(g) << 8) | std::uint32_t(b)];
    if (r > 200 && r - g > 60 && r - b > 60 && std::abs(g - b) < 20) ++c.reddish;
  }
  std::size_t top = 0;
  for (const auto& [colour, n] : histogram) top = std::max(top, n);
  c.distinct = histogram.size();
  c.most_common_share = img.rgb.empty() ? 1 : double(top) / double(img.rgb.size() / 3);
  return c;
}

class report_chromium : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    ASSERT_FALSE(chromium_.empty())
        << "chromium not found (neither $WARPSCOPE_CHROMIUM nor chromium / chromium-browser on PATH): "
           "install Debian's `chromium` package (apt-get install -y chromium) to run the HTML report tests";
    write_html_report(test::sample_report(), (scratch_.path() / "html").string());
  }

  Rendered render_page(const std::string& file) {
    auto start = std::chrono::steady_clock::now();
    Rendered r = render(chromium_, scratch_.path() / "html" / file, scratch_.path());
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << file << ": rendered in " << s << " s\n";
    return r;
  }

  void check_screenshot(const Rendered& r) {
    ASSERT_TRUE(fs::exists(r.png)) << "no screenshot\n" << r.log;
    std::string png = read(r.png);
    EXPECT_GT(png.size(), 8u * 1024) << r.log;
    Image img = decode_png(png);
    ASSERT_EQ(img.error, "");
    EXPECT_EQ(img.width, std::uint32_t(kWidth));
    EXPECT_EQ(img.height, std::uint32_t(kHeight));
    Colours c = colours(img);
    std::cout << "  " << c.distinct << " colours, the most common on " << 100 * c.most_common_share
              << " % of the pixels, " << c.reddish << " shaded pixels\n";
    // Text, table rules and the header make a page of many colours; a blank or failed render
    // is one flat colour.
    EXPECT_GT(c.distinct, 20u);
    EXPECT_LT(c.most_common_share, 0.98);
    last_colours_ = c;
  }

  std::string chromium_;
  Scratch scratch_;
  Colours last_colours_;
};

TEST_F(report_chromium, IndexPage) {
  Rendered r = render_page("index.html");
  ASSERT_NE(r.dom.find("<table id=\"launches\">"), std::string::npos) << r.log << r.dom.substr(0, 2000);
  EXPECT_EQ(count(r.dom, "<tr class=\"launch"), 2u);
  EXPECT_NE(r.dom.find("<a href=\"launch_0.html\">void scale&lt;float&gt;(float&amp;, float const*)</a>"),
            std::string::npos);
  EXPECT_NE(r.dom.find("<a href=\"launch_1.html\">fault(int*)</a>"), std::string::npos);
  EXPECT_NE(r.dom.find("id=\"timing-note\""), std::string::npos);
  check_screenshot(r);
}

TEST_F(report_chromium, LaunchPage) {
  Rendered r = render_page("launch_0.html");
  ASSERT_NE(r.dom.find("id=\"kernel-name\""), std::string::npos) << r.log << r.dom.substr(0, 2000);
  EXPECT_EQ(count(r.dom, "<tr class=\"src-line\""), 4u);
  EXPECT_EQ(count(r.dom, "<li class=\"advice\""), 2u);
  EXPECT_NE(r.dom.find("<table id=\"compare\">"), std::string::npos);
  EXPECT_NE(r.dom.find("<table id=\"metrics\">"), std::string::npos);
  // The source text arrived as text (the parser saw no tags in it).
  EXPECT_NE(r.dom.find("  if (i &lt; n &amp;&amp; x[i] &gt; 0) y[i] = x[i] &amp; mask;"), std::string::npos);
  // Every picture is an <svg> element inside its access-svg figure.
  std::size_t figures = 0;
  for (auto at = r.dom.find("<figure class=\"access-svg\""); at != std::string::npos;
       at = r.dom.find("<figure class=\"access-svg\"", at + 1), ++figures) {
    std::string figure = r.dom.substr(at, r.dom.find("</figure>", at) - at);
    EXPECT_NE(figure.find("<svg"), std::string::npos);
    EXPECT_NE(figure.find("</svg>"), std::string::npos);
    EXPECT_GT(count(figure, "<rect"), 32u);  // the lanes at least
  }
  EXPECT_EQ(figures, 2u);
  check_screenshot(r);
  // The worst line's shading (rgba(215, 48, 39, 0.75) over white) is on screen.
  EXPECT_GT(last_colours_.reddish, 1000u);
}

}  // namespace
}  // namespace warpscope::report
