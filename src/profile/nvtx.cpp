#include "profile/nvtx.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace warpscope::profiling {
namespace {

// The NVTX 3 injection interface (nvtx3/nvtxDetail/nvtxTypes.h, nvToolsExt.h): the export table
// id of the callbacks, the modules and callback ids of the functions taken over, and the event
// attributes' layout (nvtxEventAttributes_v2).
using FunctionPointer = void (*)();
using FunctionTable = FunctionPointer**;
constexpr std::uint32_t kEtidCallbacks = 1;
constexpr int kModuleCore = 1, kModuleCore2 = 5;
constexpr unsigned kCorePushEx = 8, kCorePushA = 9, kCorePushW = 10, kCorePop = 11;
constexpr unsigned kCore2PushEx = 4, kCore2Pop = 5, kCore2RegisterStringA = 10, kCore2CreateA = 12;
constexpr std::int32_t kMessageAscii = 1, kMessageUnicode = 2, kMessageRegistered = 3;

struct ExportTableCallbacks {
  std::size_t struct_size;
  int (*get_module_function_table)(int module, FunctionTable* table, unsigned int* size);
};

struct EventAttributes {
  std::uint16_t version, size;
  std::uint32_t category;
  std::int32_t color_type;
  std::uint32_t color;
  std::int32_t payload_type, reserved0;
  std::uint64_t payload;
  std::int32_t message_type;
  const void* message;
};

/// A created domain (nvtxDomainCreateA's handle points to one) and its registered strings.
struct Domain {
  std::string name;
};
struct RegisteredString {
  std::string text;
};

std::mutex g_mu;
std::deque<Domain> g_domains;                // stable addresses: handles point into it
std::deque<RegisteredString> g_strings;
std::atomic<bool> g_injected{false};

// Never destroyed: NVTX calls from atexit handlers come after thread_local destructors.
thread_local NvtxStacks& t_stacks = *new NvtxStacks;

std::vector<std::string>& stack_of(const std::string& domain) {
  for (auto& [d, s] : t_stacks.domains)
    if (d == domain) return s;
  t_stacks.domains.emplace_back(domain, std::vector<std::string>{});
  return t_stacks.domains.back().second;
}

std::string narrow(const wchar_t* w) {
  std::string out;
  for (; w != nullptr && *w != 0; ++w) out += *w < 128 ? static_cast<char>(*w) : '?';
  return out;
}

std::string message_of(const EventAttributes* a) {
  if (a == nullptr || a->message == nullptr) return "";
  switch (a->message_type) {
    case kMessageAscii: return static_cast<const char*>(a->message);
    case kMessageUnicode: return narrow(static_cast<const wchar_t*>(a->message));
    case kMessageRegistered: return static_cast<const RegisteredString*>(a->message)->text;
    default: return "";
  }
}

int push(const std::string& domain, const std::string& name) {
  auto& s = stack_of(domain);
  s.push_back(name);
  return static_cast<int>(s.size()) - 1;
}

int pop(const std::string& domain) {
  auto& s = stack_of(domain);
  if (s.empty()) return -1;  // NVTX: a pop without a push returns a negative level
  s.pop_back();
  return static_cast<int>(s.size());
}

std::string domain_name(const void* handle) { return handle == nullptr ? "" : static_cast<const Domain*>(handle)->name; }

int range_push_a(const char* m) { return push("", m == nullptr ? "" : m); }
int range_push_w(const wchar_t* m) { return push("", narrow(m)); }
int range_push_ex(const EventAttributes* a) { return push("", message_of(a)); }
int range_pop() { return pop(""); }
int domain_push_ex(const void* d, const EventAttributes* a) { return push(domain_name(d), message_of(a)); }
int domain_pop(const void* d) { return pop(domain_name(d)); }
const void* domain_create_a(const char* name) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_domains.push_back(Domain{name == nullptr ? "" : name});
  return &g_domains.back();
}
const void* register_string_a(const void*, const char* text) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_strings.push_back(RegisteredString{text == nullptr ? "" : text});
  return &g_strings.back();
}

template <class F>
void install(FunctionTable table, unsigned size, unsigned id, F* f) {
  if (table != nullptr && id < size && table[id] != nullptr) *table[id] = reinterpret_cast<FunctionPointer>(f);
}

/// One expression per line of an environment variable.
std::vector<std::string> expressions(const char* name) {
  std::vector<std::string> out;
  const char* v = std::getenv(name);
  if (v == nullptr) return out;
  std::istringstream in(v);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

/// Whether an expression matches the stacks: "A/B/" a prefix of the default domain's stack
/// written the same way, "Domain@A/" of that domain's, "regex:EXPR" found in it.
bool matches(const std::string& expr, const NvtxStacks& stacks) {
  std::string e = expr;
  std::string domain;
  const bool regex = e.rfind("regex:", 0) == 0;
  if (regex) e = e.substr(6);
  if (const auto at = e.find('@'); at != std::string::npos && !regex) {
    domain = e.substr(0, at);
    e = e.substr(at + 1);
  }
  for (const auto& [d, s] : stacks.domains) {
    if (d != domain && !regex) continue;
    std::string written;
    for (const auto& r : s) written += r + "/";
    if (written.empty()) continue;
    if (regex) {
      try {
        if (std::regex_search((d.empty() ? "" : d + "@") + written, std::regex(e, std::regex::ECMAScript))) return true;
      } catch (const std::regex_error&) {
        return false;
      }
    } else if (written.rfind(e, 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

NvtxStacks nvtx_stacks() {
  NvtxStacks s = t_stacks;
  s.thread = static_cast<long>(syscall(SYS_gettid));
  return s;
}

bool nvtx_injected() { return g_injected.load(); }

std::string nvtx_filter_reason(const NvtxStacks& stacks) {
  const auto include = expressions("WARPSCOPE_NVTX_INCLUDE");
  const auto exclude = expressions("WARPSCOPE_NVTX_EXCLUDE");
  for (const auto& e : exclude)
    if (matches(e, stacks)) return "--nvtx-exclude " + e + " matches the NVTX ranges the launch is in";
  if (include.empty()) return "";
  for (const auto& e : include)
    if (matches(e, stacks)) return "";
  std::string all;
  for (const auto& e : include) all += (all.empty() ? "" : ", ") + e;
  if (!nvtx_injected())
    return "--nvtx-include " + all + ": the program has made no NVTX call yet (no ranges recorded; NVTX 3 loads " +
           "warpscope's injection at the first call)";
  return "--nvtx-include " + all + " matches none of the NVTX ranges the launch is in";
}

nlohmann::json nvtx_json(const NvtxStacks& stacks) {
  nlohmann::json domains = nlohmann::json::array();
  for (const auto& [d, s] : stacks.domains)
    if (!s.empty()) domains.push_back({{"domain", d}, {"ranges", s}});
  return {{"thread", stacks.thread}, {"domains", domains}};
}

}  // namespace warpscope::profiling

/// NVTX 3's entry point for an injection library (nvtxInit.h): the program's first NVTX call loads
/// the library named by NVTX_INJECTION64_PATH and calls this with its export-table getter.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* (*get_export_table)(std::uint32_t)) {
  using namespace warpscope::profiling;
  if (get_export_table == nullptr) return 0;
  const auto* callbacks = static_cast<const ExportTableCallbacks*>(get_export_table(kEtidCallbacks));
  if (callbacks == nullptr || callbacks->get_module_function_table == nullptr) return 0;
  FunctionTable core = nullptr, core2 = nullptr;
  unsigned core_size = 0, core2_size = 0;
  if (!callbacks->get_module_function_table(kModuleCore, &core, &core_size)) return 0;
  if (!callbacks->get_module_function_table(kModuleCore2, &core2, &core2_size)) return 0;
  install(core, core_size, kCorePushA, &range_push_a);
  install(core, core_size, kCorePushW, &range_push_w);
  install(core, core_size, kCorePushEx, &range_push_ex);
  install(core, core_size, kCorePop, &range_pop);
  install(core2, core2_size, kCore2PushEx, &domain_push_ex);
  install(core2, core2_size, kCore2Pop, &domain_pop);
  install(core2, core2_size, kCore2CreateA, &domain_create_a);
  install(core2, core2_size, kCore2RegisterStringA, &register_string_a);
  g_injected = true;
  return 1;
}
