//===- OnceMap.h - make each value once, however many ask -------*- C++ -*-===//
//
// The runtime's caches: the first thread asking for a key makes the value
// (compiles, loads a module) without holding the map's lock, so different
// keys are made concurrently; threads asking for the same key meanwhile wait
// and get that one result, success or error. After a failure the next caller
// tries again. Values are never removed, so the pointers handed out stay
// valid for the life of the map.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_RUNTIME_ONCEMAP_H
#define TCUC_RUNTIME_ONCEMAP_H

#include "tcuc/Status.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tcuc {

template <typename T> class OnceMap {
public:
  using MakeFn = std::function<Status(T &)>;

  Status get(const std::string &key, const MakeFn &make, const T *&out) {
    std::unique_lock<std::mutex> lock(mu);
    // unordered_map never moves its elements, so `e` survives rehashing.
    Entry &e = entries[key];
    uint64_t failuresSeen = e.failures;
    cv.wait(lock, [&] { return e.state != State::Busy; });
    if (e.state == State::Ready) {
      out = e.value.get();
      return Status::success();
    }
    if (e.failures != failuresSeen)
      return e.lastError; // We waited for a maker that failed.

    e.state = State::Busy;
    lock.unlock();
    auto value = std::make_unique<T>();
    Status s = make(*value);
    lock.lock();
    if (s) {
      e.value = std::move(value);
      e.state = State::Ready;
      out = e.value.get();
    } else {
      e.state = State::Empty;
      e.lastError = s;
      ++e.failures;
    }
    cv.notify_all();
    return s;
  }

  /// Calls `fn` on every value made so far (for teardown).
  void forEach(const std::function<void(T &)> &fn) {
    std::lock_guard<std::mutex> lock(mu);
    for (auto &kv : entries)
      if (kv.second.value)
        fn(*kv.second.value);
  }

private:
  enum class State { Empty, Busy, Ready };
  struct Entry {
    State state = State::Empty;
    std::unique_ptr<T> value;
    Status lastError;
    uint64_t failures = 0;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::unordered_map<std::string, Entry> entries;
};

} // namespace tcuc

#endif // TCUC_RUNTIME_ONCEMAP_H
