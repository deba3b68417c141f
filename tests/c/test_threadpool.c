/* The worker pool: every task of a job runs exactly once, on a thread below the job's thread
 * limit, also while another thread keeps a core busy (workers then miss jobs or are preempted
 * inside one, and the pool runs jobs on the caller alone for a while); an idle pool sleeps. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "threadpool.h"

enum { kMaxTasks = 97, kJobs = 3000 };

typedef struct job {
  atomic_int runs[kMaxTasks];
  atomic_int bad_thread;
  int max_threads;
  int spin; /* iterations of busy work per task, so tasks overlap */
} job;

static void count_task(void* arg, int task, int thread) {
  job* j = (job*)arg;
  atomic_fetch_add(&j->runs[task], 1);
  if (thread < 0 || thread >= j->max_threads) atomic_store(&j->bad_thread, 1);
  volatile unsigned sink = 0;
  for (int i = 0; i < j->spin; ++i) sink += (unsigned)i;
}

/* Runs kJobs jobs of 1 .. kMaxTasks tasks; returns how many were wrong. */
static int run_jobs(el_threadpool* pool, int threads) {
  job j;
  int wrong = 0;
  for (int n = 0; n < kJobs; ++n) {
    const int tasks = 1 + (n * 7919) % kMaxTasks;
    for (int t = 0; t < kMaxTasks; ++t) atomic_init(&j.runs[t], 0);
    atomic_init(&j.bad_thread, 0);
    j.max_threads = 1 + n % threads;
    j.spin = (n % 5) * 200;
    el_threadpool_run(pool, tasks, j.max_threads, count_task, &j);
    int ok = !atomic_load(&j.bad_thread);
    for (int t = 0; t < kMaxTasks; ++t) ok &= atomic_load(&j.runs[t]) == (t < tasks);
    wrong += !ok;
  }
  return wrong;
}

/* Two tasks that wait (up to a second) for each other to start: they finish at once only when
 * two threads run them together. */
typedef struct meeting {
  atomic_int started;
  int thread_of[2];
} meeting;

static void meet_task(void* arg, int task, int thread) {
  meeting* m = (meeting*)arg;
  m->thread_of[task] = thread;
  atomic_fetch_add(&m->started, 1);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while (atomic_load(&m->started) < 2 &&
           (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000000L);
}

static atomic_int g_hog_stop;

static void* hog_main(void* arg) {
  (void)arg;
  volatile unsigned sink = 0;
  while (!atomic_load_explicit(&g_hog_stop, memory_order_relaxed)) sink += 1u;
  return NULL;
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void test_threadpool(void) {
  CHECK(el_threadpool_create(1) == NULL);
  CHECK_EQ_INT(el_threadpool_threads(NULL), 1);
  CHECK_EQ_INT(run_jobs(NULL, 1), 0);
  for (int threads = 2; threads <= 3; ++threads) {
    el_threadpool* pool = el_threadpool_create(threads);
    CHECK(pool != NULL);
    if (pool == NULL) continue;
    CHECK_EQ_INT(el_threadpool_threads(pool), threads);
    meeting m = {0, {-1, -1}};
    el_threadpool_run(pool, 2, threads, meet_task, &m);
    CHECK(m.thread_of[0] != m.thread_of[1]);
    CHECK_EQ_INT(run_jobs(pool, threads), 0);
    /* Two busy threads more than this machine may have cores: workers get preempted. */
    pthread_t hogs[2];
    atomic_store(&g_hog_stop, 0);
    int started = 0;
    for (int i = 0; i < 2; ++i) started += pthread_create(&hogs[i], NULL, hog_main, NULL) == 0;
    CHECK_EQ_INT(run_jobs(pool, threads), 0);
    atomic_store(&g_hog_stop, 1);
    for (int i = 0; i < started; ++i) pthread_join(hogs[i], NULL);
    CHECK_EQ_INT(run_jobs(pool, threads), 0);
    /* An idle pool sleeps: 100 ms without jobs cost (far) less than 20 ms of CPU. */
    const double before = cpu_seconds();
    const struct timespec idle = {0, 100000000};
    nanosleep(&idle, NULL);
    CHECK(cpu_seconds() - before < 0.02);
    el_threadpool_destroy(pool);
  }
}
