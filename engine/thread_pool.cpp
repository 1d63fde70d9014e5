// Fork-safe, lazily created worker pool. Design:
//  * A parallel_for publishes one Job (on the caller's stack) in a bounded
//    queue; workers and the caller claim parts with an atomic counter, so the
//    caller always helps and a job completes even if no worker is free.
//  * When the queue is full (many application threads at once), the caller
//    runs its job alone: total threads never exceed threads()-1 workers plus
//    the application's own threads.
//  * fork(): the child cannot use the parent's workers (they do not exist in
//    it) or its locks (a worker may have held one). The child abandons the old
//    pool (leaked on purpose, a few hundred bytes) and the next call creates a
//    new one.
#include "engine/thread_pool.h"

#include <pthread.h>

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

// Spins until pred() or kSpin has passed; returns pred().
template <class Pred>
bool spin_until(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    if (pred()) return true;
    __builtin_ia32_pause();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline) return pred();
  }
}

struct Job {
  const std::function<void(size_t, size_t)>* fn;
  size_t n = 0;
  size_t parts = 0;
  std::atomic<size_t> next{0};
  std::mutex m;
  std::condition_variable cv;
  // Written under m (so the caller's final lock orders with the last
  // worker), read without it while the caller spins.
  std::atomic<size_t> done{0};  // parts finished
  std::atomic<int> refs{0};     // workers inside run_parts
  bool finished() const { return done.load() == parts && refs.load() == 0; }

  void range(size_t part, size_t* b, size_t* e) const {
    *b = n * part / parts;
    *e = n * (part + 1) / parts;
  }
  // Claims and runs parts until none are left; returns how many it ran.
  size_t run_parts() {
    size_t ran = 0;
    for (;;) {
      const size_t p = next.fetch_add(1, std::memory_order_relaxed);
      if (p >= parts) break;
      size_t b, e;
      range(p, &b, &e);
      (*fn)(b, e);
      ++ran;
    }
    return ran;
  }
};

std::mutex g_create_mu;            // guards g_pool creation/destruction
ThreadPool* g_pool = nullptr;      // current process's pool
std::atomic<size_t> g_configured{0};
std::once_flag g_atfork_once;

void atfork_prepare() { g_create_mu.lock(); }
void atfork_parent() { g_create_mu.unlock(); }
void atfork_child() {
  // Abandon the parent's pool: its workers do not exist here.
  g_pool = nullptr;
  new (&g_create_mu) std::mutex();
}

}  // namespace

struct ThreadPool::Impl {
  size_t nthreads = 1;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Job*> queue;
  std::atomic<size_t> queued{0};  // queue.size(), for spinning without mu
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;

  void worker_loop() {
    for (;;) {
      Job* job = nullptr;
      {
        spin_until([&] { return stop.load() || queued.load() != 0; });
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, [&] { return stop.load() || !queue.empty(); });
        if (stop) return;
        job = queue.front();
        if (job->next.load(std::memory_order_relaxed) >= job->parts) {
          queue.pop_front();  // exhausted; its caller finishes it
          queued.store(queue.size());
          continue;
        }
        std::lock_guard<std::mutex> jl(job->m);
        ++job->refs;
      }
      const size_t ran = job->run_parts();
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
  std::call_once(g_atfork_once, [] {
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  });
  std::lock_guard<std::mutex> lk(g_create_mu);
  if (g_pool == nullptr) g_pool = new ThreadPool();
  return *g_pool;
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
    p = g_pool;
    g_pool = nullptr;
  }
  delete p;
}

size_t ThreadPool::threads() const { return impl_->nthreads; }

void ThreadPool::parallel_for(size_t n, size_t grain,
                              const std::function<void(size_t, size_t)>& fn, size_t parts) {
  if (n == 0) return;
  if (parts == 0) parts = impl_->nthreads;
  if (grain == 0) grain = 1;
  if (parts > n / grain) parts = std::max<size_t>(1, n / grain);
  if (parts <= 1 || impl_->workers.empty()) {
    fn(0, n);
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  job.parts = parts;
  bool queued = false;
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    if (impl_->queue.size() < kMaxQueuedJobs) {
      impl_->queue.push_back(&job);
      impl_->queued.store(impl_->queue.size());
      queued = true;
    }
  }
  if (queued) impl_->cv.notify_all();
  const size_t ran = job.run_parts();
  if (queued) {
    // No worker may pick the job up after this point.
    std::lock_guard<std::mutex> lk(impl_->mu);
    for (auto it = impl_->queue.begin(); it != impl_->queue.end(); ++it) {
      if (*it == &job) {
        impl_->queue.erase(it);
        impl_->queued.store(impl_->queue.size());
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
