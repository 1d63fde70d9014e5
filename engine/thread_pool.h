// The provider-wide thread pool. Created lazily on first use, sized from the
// configuration (`threads`, default: online CPUs), shared by every context and
// library context, rebuilt in a child after fork(), joined at teardown.
// Work is split into many small chunks claimed from a shared counter: the
// caller starts on them at once, a helper joins when it gets a core, and a
// helper that is descheduled holds back at most the one chunk it is running
// (docs/ARCHITECTURE.md, "Dispatch"). Never oversubscribes: at most
// threads()-1 helpers per process.
#pragma once
#include <cstddef>
#include <functional>

namespace gpucrypto {

class ThreadPool {
 public:
  // The process-wide pool (created on first call; lock-free once it exists).
  static ThreadPool& instance();

  // Runs fn(begin, end) over [0, n) in chunks of `chunk` items (the last one
  // shorter), each chunk exactly once, by the calling thread and at most
  // `max_threads` - 1 helpers (0: as many as the pool has). Returns after
  // every chunk ran. fn must not throw.
  void parallel_for(size_t n, size_t chunk, const std::function<void(size_t, size_t)>& fn,
                    size_t max_threads = 0);

  // Number of threads that can work on a parallel_for (helpers + the caller).
  size_t threads() const;

  // Asks for a pool of `threads` threads (0 = online CPUs). The pool is sized
  // by the largest request made before it is created; an existing pool is not
  // resized (callers still cap their own thread count).
  static void configure(size_t threads);

  // Joins the helpers (provider teardown). A later call recreates them.
  static void shutdown();

  ~ThreadPool();

 private:
  ThreadPool();
  struct Impl;
  Impl* impl_;
};

}  // namespace gpucrypto
