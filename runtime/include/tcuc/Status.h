//===- Status.h - success or an error message -------------------*- C++ -*-===//
//
// The runtime's error value. tcuc builds with -fno-exceptions, so every call
// that can fail returns a Status: either ok, or a message meant for a person
// ("no CUDA device", "kernel file: line 3: ...").
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_STATUS_H
#define TCUC_STATUS_H

#include <string>
#include <utility>

namespace tcuc {

class [[nodiscard]] Status {
public:
  /// Ok.
  Status() = default;

  static Status success() { return Status(); }
  /// An error. An empty message still makes an error (with a generic text),
  /// so a failure can never be mistaken for success.
  static Status error(std::string message) {
    Status s;
    s.failed = true;
    s.msg = message.empty() ? std::string("unknown error") : std::move(message);
    return s;
  }

  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  /// Empty when ok.
  const std::string &message() const { return msg; }

  /// The same error with `context` in front ("loading kernel X: <message>");
  /// ok stays ok.
  Status withContext(const std::string &context) const {
    return ok() ? *this : error(context + ": " + msg);
  }

private:
  bool failed = false;
  std::string msg;
};

} // namespace tcuc

#endif // TCUC_STATUS_H
