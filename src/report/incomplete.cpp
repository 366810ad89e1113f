#include "report/incomplete.hpp"
#include "report/json_access.hpp"

#include <fmt/format.h>

#include "report/html.hpp"

namespace warpscope::report {
namespace {

using json = nlohmann::json;

std::string base(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const json& incomplete_of(const json& launch) {
  static const json none;
  if (!launch.is_object()) return none;
  auto it = launch.find("incomplete");
  return it == launch.end() || !it->is_object() ? none : *it;
}

/// "interrupted by SIGINT after 1.2 s", "timed out after 5.0 s (--timeout 5)", "hang: ...".
std::string why(const json& inc) {
  const std::string reason = inc.value("reason", "");
  const double elapsed = inc.value("elapsed_s", 0.0);
  if (reason == "signal") return fmt::format("interrupted by {} after {:.1f} s", inc.value("signal", "a signal"), elapsed);
  if (reason == "timeout")
    return fmt::format("timed out after {:.1f} s (--timeout {})", elapsed, inc.value("timeout_s", 0.0));
  if (reason == "hang") return "hang: every live warp spins on memory that no running thread can change";
  return reason;
}

/// "2 warps of CTA 0 running at stop.cu:59, in the loop at stop.cu:57-59".
std::string place_text(const json& p, bool html) {
  const std::uint64_t warps = p.value("warps", std::uint64_t{0}), ctas = p.value("ctas", std::uint64_t{0});
  const std::string state = p.value("state", "");
  const std::string verb = state == "spinning"    ? "spinning on an unchanged value at"
                           : state == "barrier"   ? "waiting at a barrier at"
                           : state == "warp_sync" ? "waiting at a warp-synchronous instruction at"
                                                  : "running at";
  const std::string file = base(p.value("file", ""));
  std::string where = file.empty() ? fmt::format("pc {}", p.value("pc", 0)) : fmt::format("{}:{}", file, p.value("line", 0));
  std::string s = fmt::format("{} warp{} of {} {} {}", warps, warps == 1 ? "" : "s",
                              ctas == 1 ? fmt::format("CTA {}", p.value("first_cta", 0))
                                        : fmt::format("{} CTAs from CTA {}", ctas, p.value("first_cta", 0)),
                              verb, where);
  if (state != "running" && !p.value("ptx", "").empty()) {
    s += html ? fmt::format(" (<code>{}</code>)", html_escape(p.value("ptx", ""))) : fmt::format(" (`{}`)", p.value("ptx", ""));
  }
  if (const auto loop = p.find("loop"); loop != p.end() && loop->is_object()) {
    const auto first = loop->value("first_line", 0u), last = loop->value("last_line", 0u);
    s += first == last ? fmt::format(", in the loop at {}:{}", base(loop->value("file", "")), first)
                       : fmt::format(", in the loop at {}:{}-{}", base(loop->value("file", "")), first, last);
  }
  return s;
}

}  // namespace

std::string incomplete_marker(const json& launch) {
  const json& inc = incomplete_of(launch);
  return inc.is_null() ? "" : "[incomplete] ";
}

std::string incomplete_text(const json& report) {
  std::string out;
  if (const auto st = report.find("stopped"); st != report.end() && st->is_object()) {
    const std::string what = st->value("reason", "") == "timeout"
                                 ? fmt::format("a launch ran past --timeout {}", st->value("timeout_s", 0.0))
                                 : fmt::format("{}", st->value("signal", "a signal"));
    out += fmt::format("\n== stopped: {} (exit code {}); the report has the launches that finished{}\n", what,
                       st->value("exit_code", 0), st->contains("launch") && !(*st)["launch"].is_null()
                                                            ? " and the interrupted one"
                                                            : "");
  }
  for (const json& l : report::array_member(report, "launches")) {
    const json& inc = incomplete_of(l);
    if (inc.is_null()) continue;
    if (out.empty()) out += "\n";
    out += fmt::format("== launch {} {}: incomplete, {}: {} of {} CTAs done\n", l.value("index", 0),
                       l.value("name", "?"), why(inc), inc.value("ctas_done", 0), inc.value("ctas_total", 0));
    const json& places = inc.value("places", json::array());
    constexpr std::size_t kShown = 6;
    for (std::size_t i = 0; i < places.size() && i < kShown; ++i) out += "     " + place_text(places[i], false) + "\n";
    if (places.size() > kShown) out += fmt::format("     ... {} more places in the JSON report\n", places.size() - kShown);
  }
  return out;
}

std::string incomplete_html(const json& launch) {
  const json& inc = incomplete_of(launch);
  if (inc.is_null()) return "";
  std::string s = fmt::format("<div class=\"error\" id=\"launch-incomplete\"><p>The launch did not end ({}): {} of {} CTAs "
                              "done. Its counters cover what ran.</p>\n<ul>\n",
                              html_escape(why(inc)), inc.value("ctas_done", 0), inc.value("ctas_total", 0));
  for (const json& p : inc.value("places", json::array())) s += "<li>" + place_text(p, true) + "</li>\n";
  return s + "</ul></div>\n";
}

std::string stopped_html(const json& report) {
  const auto st = report.find("stopped");
  if (st == report.end() || !st->is_object()) return "";
  const std::string what = st->value("reason", "") == "timeout"
                               ? fmt::format("a launch ran past --timeout {}", st->value("timeout_s", 0.0))
                               : st->value("signal", "a signal");
  return fmt::format("<p class=\"error\" id=\"stopped\">The run was stopped ({}, exit code {}): the launches below "
                     "are those that finished{}.</p>\n",
                     html_escape(what), st->value("exit_code", 0),
                     st->contains("launch") && !(*st)["launch"].is_null() ? " and the interrupted one" : "");
}

}  // namespace warpscope::report
