// Device-side printf: `call vprintf, (fmt, args)`. The format string is read from device memory;
// the arguments from the buffer nvcc packs them in (each at its natural alignment: int, char and
// short as 4 bytes, long, long long, pointers and double (float is promoted) as 8 bytes), and
// each conversion is formatted with the host's snprintf, as CUDA's printf formats them.
#include <cstdio>
#include <cstring>
#include <ostream>

#include "exec/machine.hpp"

namespace warpscope::exec {

namespace {

/// Host pointer and bytes available at a generic address, as `lane` sees it; nullptr if invalid.
const std::uint8_t* generic_bytes(Ctx& x, unsigned lane, std::uint64_t addr, std::uint64_t& avail) {
  std::uint64_t off = 0;
  switch (classify_generic(addr, off)) {
    case GenericSpace::kShared:
      if (off >= x.shared_size) return nullptr;
      avail = x.shared_size - off;
      return x.shared + off;
    case GenericSpace::kLocal:
      if (off >= x.local_stride) return nullptr;
      avail = x.local_stride - off;
      return x.local + std::size_t(lane) * x.local_stride + off;
    case GenericSpace::kGlobal: {
      const Region* r = x.global->find(addr, 1);
      if (r == nullptr) return nullptr;
      avail = r->size - (addr - r->base);
      return r->host + (addr - r->base);
    }
  }
  return nullptr;
}

/// Appends snprintf(spec, v) of any length.
template <class T>
void fmt_append(std::string& out, const std::string& spec, T v) {
  const int n = std::snprintf(nullptr, 0, spec.c_str(), v);
  if (n <= 0) return;
  const std::size_t old = out.size();
  out.resize(old + static_cast<std::size_t>(n) + 1);
  std::snprintf(out.data() + old, static_cast<std::size_t>(n) + 1, spec.c_str(), v);
  out.resize(old + static_cast<std::size_t>(n));
}

}  // namespace

std::string read_c_string(Ctx& x, unsigned lane, std::uint64_t addr, std::size_t limit) {
  std::uint64_t avail = 0;
  const std::uint8_t* p = generic_bytes(x, lane, addr, avail);
  if (p == nullptr) return addr == 0 ? "(null)" : "(bad address)";
  std::string s;
  for (std::uint64_t i = 0; i < avail && i < limit && p[i] != 0; ++i) s.push_back(static_cast<char>(p[i]));
  return s;
}

// The printf FIFO. A GPU stores each printf call in the FIFO unformatted (the host formats it when
// the FIFO is flushed); the FIFO is circular, so newer calls overwrite the oldest. The bytes a call
// takes are counted here as a record of: an 8-byte header, the 8-byte format string address, the
// argument buffer (8-byte aligned) and the text of each %s argument (its NUL included, 8-byte
// aligned). That is the shape of the record, not a measured size: on the H100 a one-argument call
// of 24 characters takes about 632 bytes (829 such calls of 5000 survive a 512 KiB FIFO,
// tests/hw/data/h100/runtime_gt/README.md), so warpscope keeps more calls than the H100 does when
// a launch overflows the FIFO; which ones (the newest) is the same.
void PrintfFifo::deliver(std::ostream& out, const PrintfText& t) {
  out_ = &out;
  std::size_t begin = 0;
  for (const PrintfText::Call& c : t.calls) {
    held_.push_back(Held{t.text.substr(begin, c.end - begin), c.fifo_bytes});
    used += c.fifo_bytes;
    while (used > limit && !held_.empty()) {
      used -= held_.front().bytes;
      held_.pop_front();
      ++dropped;
    }
    begin = c.end;
  }
  // Text without a call (none is made today) is kept in order with the calls.
  if (begin < t.text.size()) held_.push_back(Held{t.text.substr(begin), 0});
}

void PrintfFifo::flush() {
  if (out_ != nullptr) {
    for (const Held& h : held_) out_->write(h.text.data(), static_cast<std::streamsize>(h.text.size()));
    out_->flush();
  }
  held_.clear();
  used = 0;
}

PrintfFifo::~PrintfFifo() {
  try {
    flush();
  } catch (...) {
    // a stream that throws while the launch unwinds: the output is lost, not the error
  }
}

int format_printf(Ctx& x, const Inst&, unsigned lane, std::uint64_t fmt_addr, std::uint64_t args_addr,
                  std::string& out, std::uint64_t* fifo_bytes) {
  std::uint64_t strings = 0;  // bytes of %s arguments, for the FIFO
  std::uint64_t arg_end = 0;
  struct Count {  // fills *fifo_bytes however the function returns
    std::uint64_t* to;
    const std::uint64_t& strings;
    const std::uint64_t& args;
    ~Count() {
      if (to != nullptr) *to = 16 + (args + 7) / 8 * 8 + strings;
    }
  } count{fifo_bytes, strings, arg_end};
  if (fmt_addr == 0) return -1;
  const std::string fmt = read_c_string(x, lane, fmt_addr, 1 << 16);
  std::uint64_t arg_off = 0;
  int consumed = 0;
  auto next_arg = [&](unsigned bytes) -> std::uint64_t {
    arg_off = (arg_off + bytes - 1) / bytes * bytes;
    std::uint64_t avail = 0;
    const std::uint8_t* p = generic_bytes(x, lane, args_addr + arg_off, avail);
    std::uint64_t v = 0;
    if (p != nullptr && avail >= bytes) std::memcpy(&v, p, bytes);
    arg_off += bytes;
    arg_end = arg_off;
    ++consumed;
    return v;
  };
  std::size_t i = 0;
  while (i < fmt.size()) {
    const char ch = fmt[i];
    if (ch != '%') {
      out.push_back(ch);
      ++i;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out.push_back('%');
      i += 2;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    std::string spec = "%";
    std::size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ #0", fmt[j]) != nullptr) spec.push_back(fmt[j++]);
    if (j < fmt.size() && fmt[j] == '*') {
      spec += std::to_string(static_cast<std::int32_t>(next_arg(4)));
      ++j;
    } else {
      while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9') spec.push_back(fmt[j++]);
    }
    if (j < fmt.size() && fmt[j] == '.') {
      spec.push_back(fmt[j++]);
      if (j < fmt.size() && fmt[j] == '*') {
        spec += std::to_string(static_cast<std::int32_t>(next_arg(4)));
        ++j;
      } else {
        while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9') spec.push_back(fmt[j++]);
      }
    }
    int longs = 0;
    int shorts = 0;
    while (j < fmt.size() && std::strchr("hlLqjzt", fmt[j]) != nullptr) {
      const char c = fmt[j++];
      if (c == 'h') ++shorts;
      else if (c == 'l' || c == 'L' || c == 'q' || c == 'j' || c == 'z' || c == 't') ++longs;
    }
    if (j >= fmt.size()) {
      out.append(fmt, i, std::string::npos);
      break;
    }
    const char conv = fmt[j++];
    switch (conv) {
      case 'd':
      case 'i': {
        long long v;
        if (longs) v = static_cast<long long>(next_arg(8));
        else v = static_cast<std::int32_t>(next_arg(4));
        if (shorts == 1) v = static_cast<short>(v);
        if (shorts >= 2) v = static_cast<signed char>(v);
        fmt_append(out, spec + "lld", v);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        unsigned long long v;
        if (longs) v = next_arg(8);
        else v = static_cast<std::uint32_t>(next_arg(4));
        if (shorts == 1) v = static_cast<unsigned short>(v);
        if (shorts >= 2) v = static_cast<unsigned char>(v);
        fmt_append(out, spec + "ll" + conv, v);
        break;
      }
      case 'c': {
        const int v = static_cast<std::int32_t>(next_arg(4));
        fmt_append(out, spec + "c", v);
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        double v;
        const std::uint64_t bits = next_arg(8);
        std::memcpy(&v, &bits, 8);
        fmt_append(out, spec + conv, v);
        break;
      }
      case 's': {
        const std::string s = read_c_string(x, lane, next_arg(8));
        strings += (s.size() + 1 + 7) / 8 * 8;
        fmt_append(out, spec + "s", s.c_str());
        break;
      }
      case 'p': {
        const std::uint64_t v = next_arg(8);
        fmt_append(out, spec + "p", reinterpret_cast<void*>(v));
        break;
      }
      default:
        out.append(fmt, i, j - i);  // not a conversion CUDA knows: print it as written
        break;
    }
    i = j;
  }
  return consumed;
}

}  // namespace warpscope::exec
