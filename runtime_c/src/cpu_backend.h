/* The per-interpreter CPU backend of the optimized kernels: which kernel tier and instruction
 * set the interpreter runs, and its worker pool.
 *
 * The interpreter creates it with its options (the EDGELITE_KERNEL_TIER and EDGELITE_ISA
 * environment variables fill options left NULL) and kernels reach it from their context with
 * el_context_backend (kernels/optimized/opt_kernels.h). */
#ifndef EDGELITE_CPU_BACKEND_H_
#define EDGELITE_CPU_BACKEND_H_

#include <stdbool.h>
#include <stddef.h>

#include "edgelite/common.h"
#include "edgelite/edgelite.h"
#include "cpu_isa.h"
#include "kernels/registry.h"
#include "threadpool.h"

typedef struct el_cpu_backend {
  el_kernel_tier tier;
  el_isa isa;
  bool amx_int8; /* "auto" level on a CPU and OS with AMX-INT8: kernels may use tiles */
  int num_threads;
  el_threadpool* pool; /* NULL while num_threads == 1: one thread never touches the pool */
} el_cpu_backend;

/* `tier` is "optimized" or "reference"; `isa` an el_isa name or "auto"; NULL reads the
 * environment. Unknown names and levels this CPU lacks are EL_VALUE_ERROR with a message. */
el_status el_cpu_backend_create(const char* tier, const char* isa, int num_threads,
                                el_cpu_backend** out, char* err, size_t err_cap);
/* Resizes the worker pool (threads are created here, never during invoke). */
el_status el_cpu_backend_set_threads(el_cpu_backend* backend, int num_threads);
void el_cpu_backend_destroy(el_cpu_backend* backend);

/* The ISA levels this CPU runs, comma separated, lowest first ("scalar,avx2,..."). */
const char* el_cpu_isas(void);

/* Runs fn over `tasks` on at most max_threads of the backend's threads (inline when it has one,
 * or when b is NULL). Kernels pass the thread count they sized per-thread scratch for. */
void el_cpu_parallel(const el_cpu_backend* b, int tasks, int max_threads, el_task_fn fn, void* arg);
/* Threads a kernel may split work over. */
static inline int el_cpu_threads(const el_cpu_backend* b) { return b ? b->num_threads : 1; }

#endif /* EDGELITE_CPU_BACKEND_H_ */
