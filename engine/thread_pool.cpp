// Fork-safe, lazily created worker pool. Design:
//  * A parallel_for publishes one Job (on the caller's stack) in a bounded
//    queue; workers and the caller claim chunks with an atomic counter, so the
//    caller always works, a job completes even if no worker is free, and a
//    helper that loses its core (a busy machine) delays the caller by at most
//    the chunk it holds, never by a fixed share of the job.
//  * When the queue is full (many application threads at once), the caller
//    runs its job alone: total threads never exceed threads()-1 workers plus
//    the application's own threads.
//  * fork(): the child cannot use the parent's workers (they do not exist in
//    it) or its locks (a worker may have held one). The child abandons the old
//    pool (leaked on purpose, a few hundred bytes) and the next call creates a
//    new one.
#include "engine/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gpucrypto {
namespace {

constexpr size_t kMaxQueuedJobs = 64;
// Before sleeping, a worker waiting for work and a caller waiting for its
// helpers spin this long: a condition-variable wake-up costs tens of
// microseconds, as much as a fast cipher needs for a whole chunk.
constexpr auto kSpin = std::chrono::microseconds(50);

// Spins until pred() or kSpin has passed; returns pred(). Every 64 pauses
// it yields the core: on an idle machine sched_yield returns at once, but when
// other processes want the CPU (a loaded server) a spinning helper must not
// take it from them, or from the caller it is waiting to help.
template <class Pred>
bool spin_until(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    if (pred()) return true;
    __builtin_ia32_pause();
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() > deadline) return pred();
      sched_yield();
    }
  }
}

struct Job {
  const std::function<void(size_t, size_t)>* fn;
  size_t n = 0;
  size_t chunk = 1;
  size_t chunks = 0;
  size_t max_helpers = 0;
  std::atomic<size_t> next{0};     // next chunk to claim
  std::atomic<size_t> helpers{0};  // workers that joined (at most max_helpers)
  std::mutex m;
  std::condition_variable cv;
  // Written under m (so the caller's final lock orders with the last
  // worker), read without it while the caller spins.
  std::atomic<size_t> done{0};  // chunks finished
  std::atomic<int> refs{0};     // workers inside run_chunks
  bool finished() const { return done.load() == chunks && refs.load() == 0; }
  bool exhausted() const { return next.load(std::memory_order_relaxed) >= chunks; }

  // Claims and runs chunks until none are left; returns how many it ran.
  size_t run_chunks() {
    size_t ran = 0;
    for (;;) {
      const size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) break;
      const size_t b = c * chunk;
      (*fn)(b, std::min(n, b + chunk));
      ++ran;
    }
    return ran;
  }
};

std::mutex g_create_mu;                // guards g_pool creation/destruction
std::atomic<ThreadPool*> g_pool{nullptr};  // current process's pool
std::atomic<size_t> g_configured{0};
std::once_flag g_atfork_once;

void atfork_prepare() { g_create_mu.lock(); }
void atfork_parent() { g_create_mu.unlock(); }
void atfork_child() {
  // Abandon the parent's pool: its workers do not exist here.
  g_pool.store(nullptr);
  new (&g_create_mu) std::mutex();
}

}  // namespace

struct ThreadPool::Impl {
  size_t nthreads = 1;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Job*> queue;
  std::atomic<uint64_t> pushes{1};  // jobs ever queued, for spinning without mu
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;

  void worker_loop() {
    uint64_t seen = 0;  // `pushes` when this worker last found nothing to join
    for (;;) {
      Job* job = nullptr;
      {
        auto ready = [&] { return stop.load() || pushes.load() != seen; };
        spin_until(ready);
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, ready);
        if (stop) return;
        seen = pushes.load();
        // The oldest job that still has chunks and room for a helper;
        // exhausted ones are dropped (their callers finish them).
        while (!queue.empty() && queue.front()->exhausted()) queue.pop_front();
        for (Job* j : queue) {
          if (j->helpers.load(std::memory_order_relaxed) < j->max_helpers && !j->exhausted()) {
            job = j;
            break;
          }
        }
        if (job == nullptr) continue;  // nothing to join: sleep until the next push
        seen = 0;                      // there may be more: look again after this one
        ++job->helpers;
        std::lock_guard<std::mutex> jl(job->m);
        ++job->refs;
      }
      const size_t ran = job->run_chunks();
      std::lock_guard<std::mutex> jl(job->m);
      job->done += ran;
      --job->refs;
      job->cv.notify_all();
    }
  }
};

ThreadPool::ThreadPool() : impl_(new Impl) {
  size_t n = g_configured.load();
  if (n == 0) n = std::max<size_t>(1, std::thread::hardware_concurrency());
  impl_->nthreads = n;
  for (size_t i = 1; i < n; ++i) impl_->workers.emplace_back([this] { impl_->worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    impl_->stop = true;
  }
  impl_->cv.notify_all();
  for (auto& t : impl_->workers) t.join();
  delete impl_;
}

ThreadPool& ThreadPool::instance() {
  // Fast path: one atomic load once the pool exists.
  if (ThreadPool* p = g_pool.load(std::memory_order_acquire); p != nullptr) return *p;
  std::call_once(g_atfork_once, [] {
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  });
  std::lock_guard<std::mutex> lk(g_create_mu);
  if (g_pool.load() == nullptr) g_pool.store(new ThreadPool(), std::memory_order_release);
  return *g_pool.load();
}

void ThreadPool::configure(size_t threads) {
  if (threads == 0) threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  size_t cur = g_configured.load();
  while (cur < threads && !g_configured.compare_exchange_weak(cur, threads)) {
  }
}

void ThreadPool::shutdown() {
  ThreadPool* p;
  {
    std::lock_guard<std::mutex> lk(g_create_mu);
    p = g_pool.exchange(nullptr);
  }
  delete p;
}

size_t ThreadPool::threads() const { return impl_->nthreads; }

void ThreadPool::parallel_for(size_t n, size_t chunk,
                              const std::function<void(size_t, size_t)>& fn, size_t max_threads) {
  if (n == 0) return;
  if (chunk == 0) chunk = 1;
  if (max_threads == 0 || max_threads > impl_->nthreads) max_threads = impl_->nthreads;
  const size_t chunks = (n - 1) / chunk + 1;
  if (chunks <= 1 || max_threads <= 1 || impl_->workers.empty()) {
    fn(0, n);
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  job.chunk = chunk;
  job.chunks = chunks;
  job.max_helpers = std::min(max_threads - 1, chunks - 1);
  bool queued = false;
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    if (impl_->queue.size() < kMaxQueuedJobs) {
      impl_->queue.push_back(&job);
      impl_->pushes.fetch_add(1);
      queued = true;
    }
  }
  if (queued) impl_->cv.notify_all();
  const size_t ran = job.run_chunks();
  if (queued) {
    // No worker may pick the job up after this point.
    std::lock_guard<std::mutex> lk(impl_->mu);
    for (auto it = impl_->queue.begin(); it != impl_->queue.end(); ++it) {
      if (*it == &job) {
        impl_->queue.erase(it);
        break;
      }
    }
  }
  {
    std::lock_guard<std::mutex> jl(job.m);
    job.done += ran;
  }
  spin_until([&] { return job.finished(); });
  std::unique_lock<std::mutex> jl(job.m);
  job.cv.wait(jl, [&] { return job.finished(); });
}

}  // namespace gpucrypto
