// The HTML report in a real browser: headless Chromium (Debian's `chromium` package) renders the
// pages written for sample_report.hpp, each in a 1280- and a 1920-pixel-wide window. Each page is
// rendered from a test copy that carries a small inline script after the page's own (only the
// index has one, its table sorter): it measures the laid-out page (the document's scrollWidth,
// where each part starts, the memory chart's width, whether the metric tables are folded, where
// the Speed Of Light bars start on screen), clicks the index's column headings and notes the row
// order, and writes the numbers into an attribute of <html>, which --dump-dom then shows. The
// screenshot of the same run is decoded here (zlib) and checked for what must be drawn: the
// chart's arrows, the line shading, the bars, the highlighted differences.
//
// Where Chromium is missing these tests SKIP and say why (CI installs it: scripts/deps.sh).
// Run them alone with `ctest -R report_chromium`; each page and width costs one Chromium start (~2 s).
// Set WARPSCOPE_SCREENSHOT_DIR to keep the screenshots for a look.
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
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

// The windows: 1280 pixels wide, the width every page must fit without scrolling sideways, and
// 1920 (a full-HD screen), where nothing may stretch or break either. Each page is rendered at both.
constexpr int kWidths[] = {1280, 1920};
constexpr int kHeight = 2400;

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

/// $WARPSCOPE_CHROMIUM when it names an executable, else `chromium` or `chromium-browser` on
/// PATH; "" when there is none.
std::string find_chromium() {
  if (const char* env = std::getenv("WARPSCOPE_CHROMIUM"); env && *env)
    return ::access(env, X_OK) == 0 ? std::string(env) : std::string();
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

// Measures the laid-out page and writes `key=value;...` into <html data-measure>. Tops are
// document coordinates of each part's first pixel (-1: not on the page); `shown:` is 1 when the
// element is rendered (checkVisibility(): 0 inside a closed <details>); `maxRight` is the right edge of the widest
// visible element, scrolling containers included.
constexpr const char* kMeasureScript = R"js(
<script>
(function () {
  var d = document.documentElement, out = [];
  function put(k, v) { out.push(k + '=' + v); }
  put('scrollWidth', d.scrollWidth);
  put('clientWidth', d.clientWidth);
  var parts = ['#kernel-name', '#worst-lines', '#advice', '#time', '#memory-chart', '#source-heading',
               '#accesses-heading', '#all-metrics', '#all-metrics table.metrics', '#launches', '#compare',
               '#compare-advice', '#compare-summary', '#sol', '#roofline', 'svg.shared-banks'];
  parts.forEach(function (sel) {
    var e = document.querySelector(sel);
    put('top:' + sel, e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1);
    put('shown:' + sel, e && e.checkVisibility() ? 1 : 0);
    put('height:' + sel, e ? Math.round(e.getBoundingClientRect().height) : -1);
  });
  var chart = document.querySelector('#memory-chart svg');
  if (chart) {
    var r = chart.getBoundingClientRect();
    put('chartWidth', Math.round(r.width));
    put('chartHeight', Math.round(r.height));
  }
  put('flows', document.querySelectorAll('#memory-chart g.flow').length);
  put('diffCells', document.querySelectorAll('#compare td.diff').length);
  // Speed Of Light: where each bar and its track start on screen, and how wide they are.
  var lefts = {}, tracks = {}, fills = document.querySelectorAll('#sol rect.sol-fill');
  fills.forEach(function (f) { lefts[Math.round(f.getBoundingClientRect().left)] = 1; });
  document.querySelectorAll('#sol rect.sol-track').forEach(function (t) {
    lefts[Math.round(t.getBoundingClientRect().left)] = 1;
    tracks[Math.round(t.getBoundingClientRect().width)] = 1;
  });
  put('solBars', fills.length);
  put('solLefts', Object.keys(lefts).length);
  put('solTrackWidths', Object.keys(tracks).length);
  var mem = document.querySelector('#sol-memory rect.sol-fill'), track = document.querySelector('#sol-memory rect.sol-track');
  if (mem && track) put('solMemoryShare', (mem.getBoundingClientRect().width / track.getBoundingClientRect().width).toFixed(3));
  var roof = document.querySelector('#roofline');
  if (roof) put('rooflineWidth', Math.round(roof.getBoundingClientRect().width));
  put('rooflinePoints', document.querySelectorAll('#roofline .point').length);
  var banks = document.querySelector('svg.shared-banks');
  if (banks) put('banksWidth', Math.round(banks.getBoundingClientRect().width));
  put('bankWords', document.querySelectorAll('svg.shared-banks g.bank-word').length);
  // The index's sorter, clicked as a user would; the launch order after each click.
  var launches = document.querySelector('table#launches.sortable');
  if (launches) {
    var order = function () {
      return Array.prototype.map.call(launches.tBodies[0].rows, function (r) { return r.getAttribute('data-index'); }).join('-');
    };
    var click = function (col) { launches.querySelector('th[data-col="' + col + '"]').click(); };
    click('duration'); put('sortDuration', order());
    click('duration'); put('sortDurationAgain', order());
    put('ariaSort', launches.querySelector('th[data-col="duration"]').getAttribute('aria-sort'));
    click('limiter'); put('sortLimiter', order());
    click('kernel'); put('sortKernel', order());
    click('registers'); put('sortRegisters', order());
    click('index'); put('sortIndex', order());
  }
  var diff = document.querySelector('#compare td.diff');
  if (diff) put('diffBackground', getComputedStyle(diff).backgroundColor.replace(/ /g, ''));
  var maxRight = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > maxRight) maxRight = r.right;
  });
  put('maxRight', Math.round(maxRight));
  d.setAttribute('data-measure', out.join(';'));
})();
</script>
)js";

struct Rendered {
  std::string dom;                                // --dump-dom
  std::map<std::string, std::string> measure;     // what the script measured
  fs::path png;                                   // --screenshot
  std::string log;                                // Chromium's stderr, for failure messages
  double number(const std::string& key) const {
    auto it = measure.find(key);
    return it == measure.end() ? -1e9 : std::stod(it->second);
  }
};

std::map<std::string, std::string> parse_measure(const std::string& dom) {
  std::map<std::string, std::string> m;
  auto at = dom.find("data-measure=\"");
  if (at == std::string::npos) return m;
  at += 14;
  std::stringstream items(dom.substr(at, dom.find('"', at) - at));
  for (std::string item; std::getline(items, item, ';');)
    if (auto eq = item.rfind('='); eq != std::string::npos) m[item.substr(0, eq)] = item.substr(eq + 1);
  return m;
}

/// Renders a test copy of `page` (the measuring script added before </body>) once: the DOM on
/// stdout and the screenshot in one Chromium run (a second run for the screenshot only if this
/// Chromium does not do both at once).
Rendered render(const std::string& chromium, const fs::path& page, const fs::path& work, int width) {
  Rendered r;
  std::string html = read(page);
  auto body_end = html.rfind("</body>");
  fs::path copy = page.parent_path() / (page.stem().string() + ".measured.html");
  std::ofstream(copy, std::ios::binary) << html.substr(0, body_end) << kMeasureScript << html.substr(body_end);
  const std::string name = page.stem().string() + "_" + std::to_string(width);
  r.png = work / (name + ".png");
  fs::path dom = work / (name + ".dom.html");
  fs::path log = work / (name + ".log");
  std::string env = "HOME=" + quote(work.string()) + " XDG_CONFIG_HOME=" + quote((work / "config").string()) +
                    " XDG_CACHE_HOME=" + quote((work / "cache").string());
  // No network: the pages need none, and a page that tried would fail to load its resource.
  std::string common = "timeout 60 " + quote(chromium) +
                       " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
                       " --no-default-browser-check --disable-extensions"
                       " --proxy-server=127.0.0.1:9"
                       " --user-data-dir=" + quote((work / "profile").string()) +
                       " --window-size=" + std::to_string(width) + "," + std::to_string(kHeight);
  std::string url = quote("file://" + fs::absolute(copy).string());
  std::string both = env + " " + common + " --screenshot=" + quote(r.png.string()) + " --dump-dom " + url + " >" +
                     quote(dom.string()) + " 2>" + quote(log.string());
  int rc = std::system(both.c_str());
  r.dom = read(dom);
  r.measure = parse_measure(r.dom);
  r.log = "exit status " + std::to_string(rc) + "\n" + read(log);
  if (!fs::exists(r.png)) {
    std::string shot = env + " " + common + " --screenshot=" + quote(r.png.string()) + " " + url + " >/dev/null 2>>" +
                       quote(log.string());
    rc = std::system(shot.c_str());
    r.log = "exit status " + std::to_string(rc) + "\n" + read(log);
  }
  if (const char* keep = std::getenv("WARPSCOPE_SCREENSHOT_DIR"); keep && *keep && fs::exists(r.png)) {
    fs::create_directories(keep);
    fs::copy_file(r.png, fs::path(keep) / r.png.filename(), fs::copy_options::overwrite_existing);
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

/// Pixels within 6 of (r, g, b) in every channel.
std::size_t pixels_of(const Image& img, int r, int g, int b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < img.rgb.size(); i += 3)
    n += std::abs(img.rgb[i] - r) <= 6 && std::abs(img.rgb[i + 1] - g) <= 6 && std::abs(img.rgb[i + 2] - b) <= 6;
  return n;
}

class report_chromium : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_.empty())
      GTEST_SKIP() << "SKIPPED: Chromium not found (neither an executable $WARPSCOPE_CHROMIUM nor chromium / "
                      "chromium-browser on PATH), so the HTML pages were not rendered. Install Debian's `chromium` "
                      "package (scripts/deps.sh does, as the README's test command runs it).";
    write_html_report(test::sample_report(), (scratch_.path() / "html").string());
  }

  Rendered render_page(const std::string& file, int width) {
    auto start = std::chrono::steady_clock::now();
    Rendered r = render(chromium_, scratch_.path() / "html" / file, scratch_.path(), width);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << file << " at " << width << " px: rendered in " << s << " s; measured:";
    for (const auto& [k, v] : r.measure) std::cout << " " << k << "=" << v;
    std::cout << "\n";
    return r;
  }

  /// The page fits the window: nothing to scroll sideways, no element past its edge.
  /// Scrollbars are shown (a page taller than the window loses 15 pixels to one), so clientWidth
  /// is the width a user has.
  void check_fits(const Rendered& r, int width) {
    ASSERT_FALSE(r.measure.empty()) << "the measuring script left nothing in the DOM\n" << r.log << r.dom.substr(0, 2000);
    EXPECT_LE(r.number("scrollWidth"), width);
    EXPECT_LE(r.number("scrollWidth"), r.number("clientWidth"));
    EXPECT_LE(r.number("maxRight"), width);
  }

  /// `blank_share`: the most a page may be of one colour (a short page is mostly background).
  Image check_screenshot(const Rendered& r, int width, double blank_share = 0.98) {
    EXPECT_TRUE(fs::exists(r.png)) << "no screenshot\n" << r.log;
    std::string png = read(r.png);
    EXPECT_GT(png.size(), 8u * 1024) << r.log;
    Image img = decode_png(png);
    EXPECT_EQ(img.error, "");
    EXPECT_EQ(img.width, std::uint32_t(width));
    EXPECT_EQ(img.height, std::uint32_t(kHeight));
    Colours c = colours(img);
    std::cout << "  " << c.distinct << " colours, the most common on " << 100 * c.most_common_share
              << " % of the pixels, " << c.reddish << " shaded pixels\n";
    // Text, table rules and the header make a page of many colours; a blank or failed render
    // is one flat colour.
    EXPECT_GT(c.distinct, 20u);
    EXPECT_LT(c.most_common_share, blank_share);
    last_colours_ = c;
    return img;
  }

  std::string chromium_;
  Scratch scratch_;
  Colours last_colours_;
};

TEST_F(report_chromium, IndexPage) {
  for (int width : kWidths) {
    SCOPED_TRACE(width);
    Rendered r = render_page("index.html", width);
    ASSERT_NE(r.dom.find("<table id=\"launches\" class=\"sortable\">"), std::string::npos) << r.log << r.dom.substr(0, 2000);
    EXPECT_EQ(count(r.dom, "<tr class=\"launch"), 4u);
    EXPECT_NE(r.dom.find("<a href=\"launch_0.html\">void scale&lt;float&gt;(float&amp;, float const*)</a>"),
              std::string::npos);
    EXPECT_NE(r.dom.find("<a href=\"launch_1.html\">fault(int*)</a>"), std::string::npos);
    EXPECT_NE(r.dom.find("<tr class=\"launch not-profiled\" data-index=\"3\""), std::string::npos);
    EXPECT_NE(r.dom.find(">not profiled</span>"), std::string::npos);
    EXPECT_NE(r.dom.find("id=\"timing-note\""), std::string::npos);
    EXPECT_NE(r.dom.find(">1.50 \u00b5s</td>"), std::string::npos);
    // The long template name of launch 3 wraps inside its cell instead of widening the table.
    check_fits(r, width);
    EXPECT_EQ(r.number("shown:#launches"), 1);
    // Clicking headings sorts: by predicted duration 850 ns (2), 1.5 us (0), then the launches
    // without one in their order, either way; by limiter "l2" < "latency"; by name; by registers
    // (16, 12, 22 and an unknown); by index back to the start.
    EXPECT_EQ(r.measure["sortDuration"], "2-0-1-3");
    EXPECT_EQ(r.measure["sortDurationAgain"], "0-2-1-3");
    EXPECT_EQ(r.measure["ariaSort"], "descending");
    EXPECT_EQ(r.measure["sortLimiter"], "2-0-1-3");
    EXPECT_EQ(r.measure["sortKernel"], "1-2-0-3");
    EXPECT_EQ(r.measure["sortRegisters"], "2-0-3-1");
    EXPECT_EQ(r.measure["sortIndex"], "0-1-2-3");
    check_screenshot(r, width);
  }
}

TEST_F(report_chromium, LaunchPage) {
  for (int width : kWidths) {
    SCOPED_TRACE(width);
    Rendered r = render_page("launch_0.html", width);
    ASSERT_NE(r.dom.find("id=\"kernel-name\""), std::string::npos) << r.log << r.dom.substr(0, 2000);
    EXPECT_EQ(count(r.dom, "<tr class=\"src-line\""), 4u);
    EXPECT_EQ(count(r.dom, "<tr class=\"worst-line\""), 2u);
    EXPECT_EQ(count(r.dom, "<li class=\"advice\""), 2u);
    EXPECT_NE(r.dom.find("<details id=\"all-metrics\">"), std::string::npos);
    // The source text arrived as text (the parser saw no tags in it).
    EXPECT_NE(r.dom.find("  if (i &lt; n &amp;&amp; x[i] &gt; 0) y[i] = x[i] &amp; mask;"), std::string::npos);
    // Every picture is an <svg> element inside its access-svg figure.
    std::size_t figures = 0;
    for (auto at = r.dom.find("<figure class=\"access-svg\""); at != std::string::npos;
         at = r.dom.find("<figure class=\"access-svg\"", at + 1), ++figures) {
      std::string figure = r.dom.substr(at, r.dom.find("</figure>", at) - at);
      EXPECT_NE(figure.find("<svg"), std::string::npos);
      EXPECT_NE(figure.find("</svg>"), std::string::npos);
      EXPECT_GT(count(figure, "<rect"), 32u);  // the lanes, or the banks' cells, at least
    }
    EXPECT_EQ(figures, 2u);

    check_fits(r, width);
    // What matters first: the kernel, the worst lines and the advice within the first screen of a
    // 1280 x 900 window; then the predicted time, the memory chart, the source, the pictures and
    // the folded metrics.
    std::vector<std::string> order{"#kernel-name", "#worst-lines",       "#advice",          "#time",
                                   "#memory-chart", "#source-heading", "#accesses-heading", "#all-metrics"};
    for (std::size_t i = 0; i < order.size(); ++i) {
      EXPECT_GE(r.number("top:" + order[i]), 0) << order[i];
      if (i) {
        EXPECT_LT(r.number("top:" + order[i - 1]), r.number("top:" + order[i])) << order[i - 1] << " / " << order[i];
      }
    }
    EXPECT_LT(r.number("top:#advice"), 900);
    // The Speed Of Light bars on one axis: six bars, every bar and track starting at the same
    // screen x, every track as wide; the memory bar 35 % of its track.
    EXPECT_EQ(r.number("solBars"), 6);
    EXPECT_EQ(r.number("solLefts"), 1);
    EXPECT_EQ(r.number("solTrackWidths"), 1);
    EXPECT_NEAR(r.number("solMemoryShare"), 0.35, 0.005);
    // The roofline is drawn, legible: this launch's two points and launch 2's two.
    EXPECT_EQ(r.number("shown:#roofline"), 1);
    EXPECT_GT(r.number("rooflineWidth"), 500);
    EXPECT_EQ(r.number("rooflinePoints"), 4);
    // The shared store on the 32 banks: its 32 lanes, one cell each.
    EXPECT_EQ(r.number("shown:svg.shared-banks"), 1);
    EXPECT_EQ(r.number("bankWords"), 32);
    EXPECT_GT(r.number("banksWidth"), 1000);
    EXPECT_LE(r.number("banksWidth"), 1180);
    // The chart: 2 + 1 + 2 + 2 arrows (global loads and stores, shared stores, L2 reads and writes,
    // DRAM reads and writes), as wide as the page allows and no wider.
    EXPECT_EQ(r.number("flows"), 7);
    EXPECT_GT(r.number("chartWidth"), 1000);
    EXPECT_LE(r.number("chartWidth"), 1180);
    // The metric tables are folded away: present in the DOM, not rendered; the closed disclosure
    // is one line of text.
    EXPECT_EQ(r.number("shown:#all-metrics"), 1);
    EXPECT_EQ(r.number("shown:#all-metrics table.metrics"), 0);
    EXPECT_LT(r.number("height:#all-metrics"), 60);

    Image img = check_screenshot(r, width);
    // The worst line's shading (rgba(215, 48, 39, 0.75) over white) is on screen, and so are the
    // chart's blue load arrow (#2b6cb0), its green shared-memory arrow (#2f855a) and the Speed Of
    // Light bars (#4a7ebb).
    EXPECT_GT(last_colours_.reddish, 1000u);
    EXPECT_GT(pixels_of(img, 0x2b, 0x6c, 0xb0), 500u);
    EXPECT_GT(pixels_of(img, 0x2f, 0x85, 0x5a), 200u);
    EXPECT_GT(pixels_of(img, 0x4a, 0x7e, 0xbb), 1000u);
  }
}

TEST_F(report_chromium, TextureLaunchPage) {
  for (int width : kWidths) {
    SCOPED_TRACE(width);
    Rendered r = render_page("launch_2.html", width);
    ASSERT_NE(r.dom.find("id=\"memory-chart\""), std::string::npos) << r.log << r.dom.substr(0, 2000);
    EXPECT_NE(r.dom.find("data-flow=\"texture\""), std::string::npos);
    check_fits(r, width);
    EXPECT_EQ(r.number("flows"), 7);  // global loads (none: dashed) and stores, texture, L2 x 2, DRAM x 2
    Image img = check_screenshot(r, width);
    EXPECT_GT(pixels_of(img, 0x8e, 0x44, 0xad), 500u);  // the texture arrow
  }
}

TEST_F(report_chromium, NotProfiledLaunchPage) {
  for (int width : kWidths) {
    SCOPED_TRACE(width);
    Rendered r = render_page("launch_3.html", width);
    ASSERT_NE(r.dom.find("id=\"kernel-name\""), std::string::npos) << r.log << r.dom.substr(0, 2000);
    EXPECT_NE(r.dom.find("id=\"not-profiled\""), std::string::npos);
    EXPECT_EQ(r.number("top:#memory-chart"), -1);
    EXPECT_EQ(r.number("top:#time"), -1);
    EXPECT_EQ(r.number("flows"), 0);
    check_fits(r, width);               // the long template name wraps in the heading
    check_screenshot(r, width, 0.997);  // a short page: a heading and a few notes
  }
}

TEST_F(report_chromium, ComparePage) {
  for (int width : kWidths) {
    SCOPED_TRACE(width);
    Rendered r = render_page("launch_0_compare.html", width);
    ASSERT_NE(r.dom.find("<table id=\"compare\">"), std::string::npos) << r.log << r.dom.substr(0, 2000);
    EXPECT_EQ(count(r.dom, "<th class=\"num arch\""), 4u);  // the summary's two and the metrics'
    check_fits(r, width);
    EXPECT_EQ(r.number("shown:#compare-advice"), 1);
    // It opens with the summary (duration, limiter, main counters), on the first screen.
    EXPECT_EQ(r.number("shown:#compare-summary"), 1);
    EXPECT_LT(r.number("top:#compare-summary"), r.number("top:#compare"));
    EXPECT_LT(r.number("top:#compare-summary"), 400);
    // Differences highlighted (#fde2c8) in the metric table: the advice count (2 vs 1),
    // sectors/request, DRAM bytes, the L2 hit rate, the metric only kepler has, and the 13 other
    // non-zero metrics of hopper that the hand-written kepler entry lacks (a dash).
    EXPECT_EQ(r.number("diffCells"), 18);
    EXPECT_EQ(r.measure["diffBackground"], "rgb(253,226,200)");
    Image img = check_screenshot(r, width);
    EXPECT_GT(pixels_of(img, 0xfd, 0xe2, 0xc8), 2000u);
  }
}

}  // namespace
}  // namespace warpscope::report
