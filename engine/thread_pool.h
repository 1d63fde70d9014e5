// The provider-wide thread pool. Created lazily on first use, sized from the
// configuration (`threads`, default: online CPUs), shared by every context and
// library context, rebuilt in a child after fork(), joined at teardown.
// Callers always work too: a parallel_for returns when every item is done,
// and never oversubscribes (at most threads()-1 helpers per process).
#pragma once
#include <cstddef>
#include <functional>

namespace gpucrypto {

class ThreadPool {
 public:
  // The process-wide pool (created on first call).
  static ThreadPool& instance();

  // Runs fn(begin, end) over [0, n) split into `parts` ranges (0: one per
  // pool thread), fewer if a range would hold less than `grain` items; the
  // calling thread takes part of the work. Returns after every range ran.
  // fn must not throw.
  void parallel_for(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn,
                    size_t parts = 0);

  // Number of threads that work on a parallel_for (helpers + the caller).
  size_t threads() const;

  // Asks for a pool of `threads` threads (0 = online CPUs). The pool is sized
  // by the largest request made before it is created; an existing pool is not
  // resized (work is still split into the parts each caller asks for).
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
