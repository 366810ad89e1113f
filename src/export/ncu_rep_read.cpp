// Reading an .ncu-rep (ncu_rep.hpp; docs/report.md "Nsight Compute's report file"): the framing,
// the block headers and the results. Fields our ncu_report.proto does not describe are skipped.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "common/error.hpp"
#include "export/ncu_rep.hpp"
#include "ncu_report.pb.h"

namespace warpscope::ncurep {
namespace pb = ncu_rep_pb;
namespace {

class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> bytes, const std::string& what) : bytes_(bytes), what_(what) {}
  std::size_t offset() const { return at_; }
  bool done() const { return at_ == bytes_.size(); }
  std::uint32_t u32(const char* field) {
    need(4, field);
    const std::uint32_t v = static_cast<std::uint32_t>(bytes_[at_]) | static_cast<std::uint32_t>(bytes_[at_ + 1]) << 8 |
                            static_cast<std::uint32_t>(bytes_[at_ + 2]) << 16 |
                            static_cast<std::uint32_t>(bytes_[at_ + 3]) << 24;
    at_ += 4;
    return v;
  }
  std::span<const std::uint8_t> take(std::size_t n, const char* field) {
    need(n, field);
    const auto s = bytes_.subspan(at_, n);
    at_ += n;
    return s;
  }
  /// A u32 size and the message of that size.
  template <typename M>
  M message(const char* field) {
    const std::size_t start = at_;
    const std::uint32_t n = u32(field);
    const auto body = take(n, field);
    M m;
    // Partial: a real report's messages are whole; a field missing here must not lose the rest.
    if (!m.ParsePartialFromArray(body.data(), static_cast<int>(body.size())))
      fail(ErrorKind::kIo, "{}: the {} at byte {} ({} bytes) is not the format's message", what_, field, start, n);
    return m;
  }
  [[noreturn]] void bad(const std::string& why) const { fail(ErrorKind::kIo, "{}: {}", what_, why); }

 private:
  void need(std::size_t n, const char* field) const {
    if (bytes_.size() - at_ < n)
      fail(ErrorKind::kIo, "{}: the file ends inside the {} at byte {} ({} bytes wanted, {} left)", what_, field, at_,
           n, bytes_.size() - at_);
  }
  std::span<const std::uint8_t> bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

Value value_of(const pb::ProfileMetricValue& v) {
  Value out;
  if (v.has_stringvalue()) {
    out.kind = Value::Kind::kString;
    out.text = v.stringvalue();
  } else if (v.has_doublevalue()) {
    out.kind = Value::Kind::kDouble;
    out.number = v.doublevalue();
  } else if (v.has_floatvalue()) {
    out.kind = Value::Kind::kFloat;
    out.number = static_cast<double>(v.floatvalue());
  } else if (v.has_uint64value()) {
    out.kind = Value::Kind::kUint64;
    out.number = static_cast<double>(v.uint64value());
  } else if (v.has_uint32value()) {
    out.kind = Value::Kind::kUint32;
    out.number = static_cast<double>(v.uint32value());
  }
  return out;
}

std::array<std::uint64_t, 3> dims(const pb::Uint64x3& d) { return {d.x(), d.y(), d.z()}; }

}  // namespace

std::optional<double> Value::as_number() const {
  if (kind == Kind::kNone || kind == Kind::kString) return std::nullopt;
  return number;
}

const Value* Result::find(const std::string& name) const {
  for (const auto& [n, v] : metrics)
    if (n == name) return &v;
  return nullptr;
}

const std::vector<std::pair<Value, Value>>* Result::find_instances(const std::string& name) const {
  for (const auto& [n, v] : instances)
    if (n == name) return &v;
  return nullptr;
}

Report read_report(std::span<const std::uint8_t> bytes, const std::string& what) {
  Cursor c(bytes, what);
  const auto magic = c.take(4, "magic");
  if (!(magic[0] == 'N' && magic[1] == 'V' && magic[2] == 'R' && magic[3] == 0))
    c.bad("not an Nsight Compute report (it does not start with \"NVR\\0\")");
  Report report;
  report.version = c.message<pb::FileHeader>("file header").version();
  // The string table grows block by block: a block's strings extend those of the blocks before it
  // (a block that repeats the whole table, as warpscope writes it, indexes the same names).
  std::vector<std::string> strings;
  while (!c.done()) {
    const std::size_t block = report.blocks++;
    const auto h = c.message<pb::BlockHeader>("block header");
    if (h.has_stringtable()) {
      const auto& s = h.stringtable().strings();
      bool repeats = static_cast<std::size_t>(s.size()) >= strings.size();
      for (std::size_t i = 0; repeats && i < strings.size(); ++i) repeats = s[static_cast<int>(i)] == strings[i];
      if (repeats) {
        strings.assign(s.begin(), s.end());
      } else {
        strings.insert(strings.end(), s.begin(), s.end());
      }
    }
    if (h.has_sessiondetails()) {
      const auto& s = h.sessiondetails();
      if (report.comments.empty()) report.comments = s.comments();
      for (const auto& v : s.versioninfo()) report.tools.emplace_back(v.provider(), v.version());
      for (const auto& d : s.deviceattributes()) {
        Device dev;
        dev.id = d.id();
        dev.name = d.name();
        for (const auto& a : d.attributes()) dev.attributes.emplace_back(a.name(), value_of(a.value()));
        report.devices.push_back(std::move(dev));
      }
    }
    const std::size_t payload_start = c.offset();
    const auto payload = c.take(h.payloadsize(), "block payload");
    Cursor p(payload, fmt::format("{} (block {} at byte {})", what, block, payload_start));
    for (std::uint32_t i = 0; i < h.numsources(); ++i) {
      const auto src = p.message<pb::SourceData>("source");
      Source out;
      out.reference = src.reference();
      out.binary_bytes = src.binary().size();
      out.sass_level = src.sasslevel();
      out.cuda_sm_version = src.cudasmversion();
      for (const auto& f : src.sourcefiles().files()) out.files.push_back(f.filename());
      for (const auto& f : src.relocationdata().functions())
        out.functions.push_back({f.symbolname(), f.address(), f.symbolindex()});
      report.source_data.push_back(std::move(out));
      ++report.sources;
    }
    for (std::uint32_t i = 0; i < h.numresults(); ++i) {
      const auto r = p.message<pb::ProfileResult>("result");
      Result out;
      out.block = block;
      out.pid = h.process().processid();
      out.process = h.process().processname();
      out.host = h.process().hostname();
      out.mangled = r.kernelmangledname();
      out.function = r.kernelfunctionname();
      out.demangled = r.kerneldemangledname();
      out.grid = dims(r.gridsize());
      out.block_size = dims(r.blocksize());
      out.context = r.contextid();
      out.stream = r.streamid();
      out.comments = r.comments();
      out.source_reference = r.source().reference();
      for (const auto& m : r.metricresults()) {
        if (m.nameid() >= strings.size())
          p.bad(fmt::format("result {} names metric {} but the string table has {} strings", i, m.nameid(),
                            strings.size()));
        if (m.metricvaluelist_size() > 0) {
          std::vector<std::pair<Value, Value>> list;
          for (const auto& e : m.metricvaluelist())
            list.emplace_back(value_of(e.correlationid()), value_of(e.elementvalue()));
          out.instances.emplace_back(strings[m.nameid()], std::move(list));
        }
        if (m.has_metricvalue() || m.metricvaluelist_size() == 0)
          out.metrics.emplace_back(strings[m.nameid()], value_of(m.metricvalue()));
      }
      for (const auto& s : r.sections()) out.sections.push_back(s.identifier());
      report.results.push_back(std::move(out));
    }
    // Range results (ncu's range replay) follow; they are not launches and are not read.
  }
  return report;
}

Report read_report_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::kIo, "{}: cannot read: {}", path, std::strerror(errno));
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return read_report(bytes, path);
}

}  // namespace warpscope::ncurep
