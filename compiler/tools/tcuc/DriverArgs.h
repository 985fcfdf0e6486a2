//===- DriverArgs.h - flag values both tcuc drivers read --------*- C++ -*-===//
//
// Plain C++ (no LLVM), shared by the full driver and the runtime-only one, so
// both read numbers and paths the same way: decimal only, never octal or hex
// by accident, and an empty path is an error rather than "no file".
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_TOOLS_TCUC_DRIVERARGS_H
#define TCUC_TOOLS_TCUC_DRIVERARGS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tcuc::driver {

/// Parses `text` as a decimal integer: an optional '-', then digits with no
/// leading zero (but "0" itself). Anything else (hex, octal-looking leading
/// zeros, spaces, a '+', overflow) fails with `why` saying what is wrong.
bool parseDecimal(const std::string &text, int64_t &value, std::string &why);
/// The same for an unsigned value (no '-').
bool parseDecimal(const std::string &text, uint64_t &value, std::string &why);

/// "" when `path`, the value of `flag`, may be used; else why not (empty).
std::string pathError(const std::string &flag, const std::string &path);

/// Installs handlers that turn a failed host allocation (operator new,
/// LLVM's allocators) into one line on stderr naming the size asked for and
/// exit code 2, instead of an abort with a stack dump. `tool` prefixes the
/// message.
void installOutOfMemoryHandlers(const char *tool);
/// What those handlers do: the message (`bytes` 0 when unknown), then exit 2.
[[noreturn]] void reportOutOfMemory(size_t bytes);

} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_DRIVERARGS_H
