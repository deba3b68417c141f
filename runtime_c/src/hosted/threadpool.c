/* Worker threads that spin for a bounded time after a job (the ops of one invoke follow each
 * other within microseconds, and waking a sleeping thread costs tens of microseconds) and then
 * sleep on a condition variable, so an idle interpreter burns no core.
 *
 * A job is open until the caller has claimed or run out of tasks; a worker joins it only while
 * it is open, and the caller then waits only for the workers that joined. A worker the system
 * has not scheduled yet (the core busy with another program) thus never delays the caller: it
 * finds the job closed when it runs and goes back to waiting. The caller waits for joined
 * workers by spinning for a bounded time and then blocking.
 *
 * On a machine busy with other programs a worker is sometimes preempted inside a task, and the
 * caller then waits a whole scheduler slice (milliseconds) for it: more than the op takes on one
 * thread. So the caller keeps score: for each job it compares the time the job took with the
 * time its own tasks say the job would have taken on the caller alone. When, over a window of
 * jobs, the threads together were slower than the caller alone would have been, the pool runs
 * jobs on the caller alone for a while (doubling while that repeats), so two threads on a loaded
 * machine cost about what one does. Short hiccups (a virtual CPU paused by its host for a few
 * hundred microseconds) do not outweigh the gain of a window and change nothing. */
#define _POSIX_C_SOURCE 200809L
#include "threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* How long a worker spins for the next job before it sleeps, and how long the caller spins for
 * joined workers to finish before it blocks (nanoseconds). Between two ops of an invoke the
 * gap is a few microseconds; between invokes from Python, tens; a worker's last task, up to a
 * few hundred. */
enum { kWorkerSpinNs = 200000, kCallerSpinNs = 200000 };
/* Spinning reads the clock every kPausesPerClockRead pauses (a few microseconds) and yields the
 * core every kPausesPerYield, so a thread sharing its core with ours (or another program) runs. */
enum { kPausesPerClockRead = 32, kPausesPerYield = 64 };
/* The score is kept over windows of kWindowJobs parallel jobs (about one MobileNet invoke); a
 * losing window sends jobs to the caller alone for kSoloMinNs, doubled per consecutive losing
 * window up to kSoloMaxNs. */
enum { kWindowJobs = 64, kSoloMinNs = 4000000, kSoloMaxNs = 64000000 };

/* The join word: the job's generation in the high 32 bits, kOpen while workers may join, and
 * the number of workers inside the job in the low bits. */
#define kOpen ((uint64_t)1 << 31)
#define kCountMask (kOpen - 1)

typedef struct worker {
  struct el_threadpool* pool;
  int id;
} worker;

struct el_threadpool {
  int threads;
  pthread_t* handles;
  worker* workers;
  int started;
  /* Written by the caller and read by joined workers: on its own cache line. */
  _Alignas(64) atomic_uint_fast64_t join;
  int tasks;
  int max_threads;
  el_task_fn fn;
  void* arg;
  /* The unclaimed tasks [front, back): front in the low 32 bits, back in the high ones. */
  _Alignas(64) atomic_uint_fast64_t unclaimed;
  _Alignas(64) atomic_int stop;
  atomic_int sleepers;       /* workers blocked (or about to block) on `wake` */
  atomic_int caller_waiting; /* the caller blocked (or about to block) on `done` */
  pthread_mutex_t mu;
  pthread_cond_t wake;
  pthread_cond_t done;
  /* The caller's own state, touched by no worker. */
  int64_t solo_until; /* jobs run on the caller alone before this time */
  int64_t solo_ns;    /* length of the next solo period */
  int window_jobs;    /* parallel jobs scored in the current window */
  int64_t took_ns;    /* their time */
  int64_t alone_ns;   /* their estimated time on the caller alone */
};

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

typedef struct spin_clock {
  int64_t deadline;
} spin_clock;

static void spin_start(spin_clock* c, int64_t budget_ns) { c->deadline = now_ns() + budget_ns; }

/* One step (the i-th, from 1) of a bounded spin; false once the spin should end. */
static bool spin_once(spin_clock* c, int i) {
  cpu_relax();
  if (i % kPausesPerYield == 0) sched_yield();
  return i % kPausesPerClockRead != 0 || now_ns() < c->deadline;
}

static inline unsigned generation_of(uint64_t s) { return (unsigned)(s >> 32); }

/* Claims the next task: the caller from the front, workers from the back, -1 when none is left.
 * Tasks are blocks of consecutive output rows, so the caller runs the first part of every op
 * and the workers the last part: the rows a thread reads were mostly written by that thread in
 * the op before, and stay in its core's cache (a shared counter interleaves the blocks, and
 * consecutive ops then trade cache lines between cores). */
static int claim_task(el_threadpool* p, int thread) {
  uint_fast64_t r = atomic_load_explicit(&p->unclaimed, memory_order_relaxed);
  for (;;) {
    const uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
    if (front >= back) return -1;
    const uint_fast64_t next = thread == 0 ? ((uint_fast64_t)back << 32) | (front + 1u)
                                           : ((uint_fast64_t)(back - 1u) << 32) | front;
    if (atomic_compare_exchange_weak_explicit(&p->unclaimed, &r, next, memory_order_relaxed,
                                              memory_order_relaxed)) {
      return (int)(thread == 0 ? front : back - 1u);
    }
  }
}

/* Runs tasks until none is left; returns how many. */
static int run_tasks(el_threadpool* p, int thread) {
  for (int ran = 0;; ++ran) {
    const int t = claim_task(p, thread);
    if (t < 0) return ran;
    p->fn(p->arg, t, thread);
  }
}

/* Waits until the join word carries a generation other than `seen` (or the pool stops) and
 * returns it: spinning for kWorkerSpinNs, then asleep. */
static uint64_t await_job(el_threadpool* p, unsigned seen) {
  uint64_t s = atomic_load_explicit(&p->join, memory_order_acquire);
  if (generation_of(s) != seen) return s;
  spin_clock clock;
  spin_start(&clock, kWorkerSpinNs);
  for (int i = 1;; ++i) {
    s = atomic_load_explicit(&p->join, memory_order_acquire);
    if (generation_of(s) != seen || atomic_load_explicit(&p->stop, memory_order_relaxed)) return s;
    if (!spin_once(&clock, i)) break;
  }
  /* Announce the sleep before the last look at the word (both sequentially consistent), so a
   * caller that publishes a job either sees a sleeper or is seen here. */
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->sleepers, 1);
  while (generation_of(s = atomic_load(&p->join)) == seen && !atomic_load(&p->stop)) {
    pthread_cond_wait(&p->wake, &p->mu);
  }
  atomic_fetch_sub(&p->sleepers, 1);
  pthread_mutex_unlock(&p->mu);
  return s;
}

static void leave_job(el_threadpool* p) {
  const uint64_t before = atomic_fetch_sub(&p->join, 1);
  if ((before & (kOpen | kCountMask)) == 1 && atomic_load(&p->caller_waiting)) {
    pthread_mutex_lock(&p->mu);
    pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->mu);
  }
}

static void* worker_main(void* arg) {
  worker* w = (worker*)arg;
  el_threadpool* p = w->pool;
  unsigned seen = 0;
  for (;;) {
    uint64_t s = await_job(p, seen);
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) return NULL;
    seen = generation_of(s);
    /* Join while the job of generation `seen` is open; a failed exchange reloads s. */
    while (generation_of(s) == seen && (s & kOpen) != 0 &&
           !atomic_compare_exchange_weak_explicit(&p->join, &s, s + 1, memory_order_acq_rel,
                                                  memory_order_acquire)) {
    }
    if (generation_of(s) != seen || (s & kOpen) == 0) continue;
    if (w->id < p->max_threads) run_tasks(p, w->id);
    leave_job(p);
  }
}

el_threadpool* el_threadpool_create(int threads) {
  if (threads < 2) return NULL;
  el_threadpool* p = aligned_alloc(64, (sizeof *p + 63) / 64 * 64);
  if (p == NULL) return NULL;
  p->threads = threads;
  p->started = 0;
  p->handles = calloc((size_t)threads, sizeof *p->handles);
  p->workers = calloc((size_t)threads, sizeof *p->workers);
  int inits = 0;
  if (p->handles != NULL && p->workers != NULL) {
    inits += pthread_mutex_init(&p->mu, NULL) == 0;
    inits += inits == 1 && pthread_cond_init(&p->wake, NULL) == 0;
    inits += inits == 2 && pthread_cond_init(&p->done, NULL) == 0;
  }
  if (inits != 3) {
    if (inits >= 2) pthread_cond_destroy(&p->wake);
    if (inits >= 1) pthread_mutex_destroy(&p->mu);
    free(p->handles);
    free(p->workers);
    free(p);
    return NULL;
  }
  atomic_init(&p->join, 0);
  atomic_init(&p->unclaimed, 0);
  atomic_init(&p->stop, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->caller_waiting, 0);
  p->tasks = 0;
  p->max_threads = 0;
  p->fn = NULL;
  p->arg = NULL;
  p->solo_until = 0;
  p->solo_ns = kSoloMinNs;
  p->window_jobs = 0;
  p->took_ns = 0;
  p->alone_ns = 0;
  /* Workers never take signals: the host program (Python) handles them on its own threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int i = 1; i < threads; ++i) {
    p->workers[i].pool = p;
    p->workers[i].id = i;
    if (pthread_create(&p->handles[i], NULL, worker_main, &p->workers[i]) != 0) break;
    p->started = i;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (p->started != threads - 1) {
    el_threadpool_destroy(p);
    return NULL;
  }
  return p;
}

void el_threadpool_destroy(el_threadpool* p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  atomic_store_explicit(&p->stop, 1, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 1; i <= p->started; ++i) pthread_join(p->handles[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->mu);
  free(p->handles);
  free(p->workers);
  free(p);
}

int el_threadpool_threads(const el_threadpool* p) { return p ? p->threads : 1; }

/* Waits for the workers that joined the closed job to leave it: a short spin, then asleep. */
static void await_workers(el_threadpool* p) {
  spin_clock clock;
  spin_start(&clock, kCallerSpinNs);
  for (int i = 1; (atomic_load_explicit(&p->join, memory_order_acquire) & kCountMask) != 0; ++i) {
    if (!spin_once(&clock, i)) {
      atomic_store(&p->caller_waiting, 1);
      pthread_mutex_lock(&p->mu);
      while ((atomic_load(&p->join) & kCountMask) != 0) pthread_cond_wait(&p->done, &p->mu);
      pthread_mutex_unlock(&p->mu);
      atomic_store(&p->caller_waiting, 0);
      return;
    }
  }
}

void el_threadpool_run(el_threadpool* p, int tasks, int max_threads, el_task_fn fn, void* arg) {
  const int64_t start = p != NULL && tasks > 1 && max_threads > 1 ? now_ns() : 0;
  if (p == NULL || tasks <= 1 || max_threads <= 1 || start < p->solo_until) {
    for (int t = 0; t < tasks; ++t) fn(arg, t, 0);
    return;
  }
  /* No worker is inside a job here (the last run waited for them), so the job may change. */
  p->tasks = tasks;
  p->max_threads = max_threads < p->threads ? max_threads : p->threads;
  p->fn = fn;
  p->arg = arg;
  atomic_store_explicit(&p->unclaimed, (uint_fast64_t)(uint32_t)tasks << 32, memory_order_relaxed);
  const unsigned gen = generation_of(atomic_load_explicit(&p->join, memory_order_relaxed)) + 1u;
  atomic_store(&p->join, ((uint64_t)gen << 32) | kOpen);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
  }
  const int ran = run_tasks(p, 0);
  /* Every task is claimed: close the job to late workers and wait for those inside. */
  const uint64_t before = atomic_fetch_and(&p->join, ~kOpen);
  const int64_t claimed = now_ns();
  if ((before & kCountMask) != 0) await_workers(p);
  if (ran == 0) return; /* the caller's speed is unknown: no score */
  p->took_ns += ((before & kCountMask) != 0 ? now_ns() : claimed) - start;
  p->alone_ns += (claimed - start) * tasks / ran;
  if (++p->window_jobs < kWindowJobs) return;
  if (p->took_ns > p->alone_ns) {
    p->solo_until = now_ns() + p->solo_ns;
    p->solo_ns = p->solo_ns * 2 < kSoloMaxNs ? p->solo_ns * 2 : kSoloMaxNs;
  } else {
    p->solo_ns = kSoloMinNs;
  }
  p->window_jobs = 0;
  p->took_ns = 0;
  p->alone_ns = 0;
}
