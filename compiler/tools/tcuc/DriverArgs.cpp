//===- DriverArgs.cpp - flag values both tcuc drivers read ----------------===//

#include "DriverArgs.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <unistd.h>

using namespace tcuc::driver;

namespace {
/// The digits part of `text` after an optional '-' in `negative`, or why not.
bool decimalDigits(const std::string &text, bool allowMinus, bool &negative,
                   std::string &digits, std::string &why) {
  negative = allowMinus && !text.empty() && text[0] == '-';
  digits = text.substr(negative ? 1 : 0);
  bool allDigits = !digits.empty();
  for (char c : digits)
    allDigits &= c >= '0' && c <= '9';
  if (!allDigits) {
    why = "expected a decimal integer, got '" + text + "'";
    return false;
  }
  if (digits.size() > 1 && digits[0] == '0') {
    why = "'" + text +
          "' has a leading zero (numbers are decimal; write it without "
          "the zero)";
    return false;
  }
  return true;
}
} // namespace

/// `text` as a decimal magnitude of at most `limit` (an optional '-' when
/// `allowMinus`), or why not; `range` names the limit in the message.
static bool parseMagnitude(const std::string &text, bool allowMinus,
                           uint64_t limit, const char *range, bool &negative,
                           uint64_t &value, std::string &why) {
  std::string digits;
  if (!decimalDigits(text, allowMinus, negative, digits, why))
    return false;
  if (negative)
    ++limit; // -2^63 fits where 2^63 does not
  uint64_t v = 0;
  for (char c : digits) {
    uint64_t d = uint64_t(c - '0');
    if (v > (limit - d) / 10) {
      why = "'" + text + "' is out of range (" + range + ")";
      return false;
    }
    v = v * 10 + d;
  }
  value = v;
  return true;
}

bool tcuc::driver::parseDecimal(const std::string &text, uint64_t &value,
                                std::string &why) {
  bool negative = false;
  return parseMagnitude(text, /*allowMinus=*/false,
                        std::numeric_limits<uint64_t>::max(),
                        "at most 2^64 - 1", negative, value, why);
}

bool tcuc::driver::parseDecimal(const std::string &text, int64_t &value,
                                std::string &why) {
  bool negative = false;
  uint64_t v = 0;
  if (!parseMagnitude(text, /*allowMinus=*/true, (uint64_t(1) << 63) - 1,
                      "a 64-bit signed integer", negative, v, why))
    return false;
  value = negative ? int64_t(0 - v) : int64_t(v);
  return true;
}

std::string tcuc::driver::pathError(const std::string &flag,
                                    const std::string &path) {
  if (path.empty())
    return flag + " needs a file name (got an empty one)";
  return "";
}

namespace {
const char *oomTool = "tcuc";

} // namespace

[[noreturn]] void tcuc::driver::reportOutOfMemory(size_t bytes) {
  // No allocation here: the heap is what failed.
  char line[256];
  int len = bytes ? std::snprintf(line, sizeof line,
                                  "%s: out of host memory: an allocation of "
                                  "%zu bytes (%zu MiB) failed (physical "
                                  "memory or the address-space limit, "
                                  "ulimit -v)\n",
                                  oomTool, bytes, bytes >> 20)
                  : std::snprintf(line, sizeof line,
                                  "%s: out of host memory (physical memory "
                                  "or the address-space limit, ulimit -v)\n",
                                  oomTool);
  if (len > 0)
    (void)!::write(STDERR_FILENO, line, size_t(len));
  std::_Exit(2);
}

// The driver's own operator new: the size is known here, unlike in a
// new-handler. (Aligned and nothrow forms fall back to these.)
void *operator new(size_t bytes) {
  if (void *p = std::malloc(bytes ? bytes : 1))
    return p;
  reportOutOfMemory(bytes);
}
void *operator new[](size_t bytes) { return ::operator new(bytes); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }

void tcuc::driver::installOutOfMemoryHandlers(const char *tool) {
  oomTool = tool;
  std::set_new_handler([] { reportOutOfMemory(0); });
}
