/* The freestanding build has no threads: every job runs its tasks in order on the caller. */
#include "threadpool.h"

#include <stddef.h>

el_threadpool* el_threadpool_create(int threads) {
  (void)threads;
  return NULL;
}

void el_threadpool_destroy(el_threadpool* pool) { (void)pool; }

int el_threadpool_threads(const el_threadpool* pool) {
  (void)pool;
  return 1;
}

void el_threadpool_run(el_threadpool* pool, int tasks, int max_threads, el_task_fn fn, void* arg) {
  (void)pool;
  (void)max_threads;
  for (int t = 0; t < tasks; ++t) fn(arg, t, 0);
}
