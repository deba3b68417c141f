#define _POSIX_C_SOURCE 200809L
#include "cpu_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static el_status parse_tier(const char* name, el_kernel_tier* tier, char* err, size_t cap) {
  if (name == NULL || name[0] == '\0' || strcmp(name, "optimized") == 0) {
    *tier = EL_TIER_OPTIMIZED;
    return EL_OK;
  }
  if (strcmp(name, "reference") == 0) {
    *tier = EL_TIER_REFERENCE;
    return EL_OK;
  }
  snprintf(err, cap, "Unknown kernel tier '%s' (expected 'optimized' or 'reference')", name);
  return EL_VALUE_ERROR;
}

static el_status parse_isa(const char* name, el_isa* isa, bool* is_auto, char* err, size_t cap) {
  if (!el_isa_parse(name, isa, is_auto)) {
    snprintf(err, cap, "Unknown ISA level '%s' (this CPU runs: auto,%s)", name, el_cpu_isas());
    return EL_VALUE_ERROR;
  }
  if (!el_isa_supported(*isa)) {
    snprintf(err, cap, "ISA level '%s' is not available on this CPU (it runs: %s)", name,
             el_cpu_isas());
    return EL_VALUE_ERROR;
  }
  return EL_OK;
}

el_status el_cpu_backend_create(const char* tier, const char* isa, int num_threads,
                                el_cpu_backend** out, char* err, size_t err_cap) {
  *out = NULL;
  el_cpu_backend* b = calloc(1, sizeof *b);
  if (b == NULL) return EL_NO_MEMORY;
  el_status st = parse_tier(tier ? tier : getenv("EDGELITE_KERNEL_TIER"), &b->tier, err, err_cap);
  bool is_auto = false;
  if (st == EL_OK) st = parse_isa(isa ? isa : getenv("EDGELITE_ISA"), &b->isa, &is_auto, err, err_cap);
  /* A named level pins the kernels to it (tests compare levels); AMX rides on "auto" only. */
  b->amx_int8 = st == EL_OK && is_auto && el_isa_amx_int8_ready();
  b->num_threads = 1;
  if (st == EL_OK) st = el_cpu_backend_set_threads(b, num_threads);
  if (st != EL_OK) {
    if (st == EL_NO_MEMORY) snprintf(err, err_cap, "Could not start %d threads", num_threads);
    el_cpu_backend_destroy(b);
    return st;
  }
  *out = b;
  return EL_OK;
}

el_status el_cpu_backend_set_threads(el_cpu_backend* b, int num_threads) {
  if (num_threads < 1) return EL_VALUE_ERROR;
  if (num_threads == b->num_threads && (num_threads == 1) == (b->pool == NULL)) return EL_OK;
  el_threadpool_destroy(b->pool);
  b->pool = NULL;
  b->num_threads = 1;
  if (num_threads > 1) {
    b->pool = el_threadpool_create(num_threads);
    if (b->pool == NULL) return EL_NO_MEMORY;
  }
  b->num_threads = num_threads;
  return EL_OK;
}

void el_cpu_backend_destroy(el_cpu_backend* b) {
  if (b == NULL) return;
  el_threadpool_destroy(b->pool);
  free(b);
}

const char* el_cpu_isas(void) {
  /* The answer never changes; it is spelled out per platform so no mutable state is kept. */
#if defined(__x86_64__)
  if (el_isa_supported(EL_ISA_AVX512_VNNI)) return "scalar,avx2,avx512,avx512_vnni";
  if (el_isa_supported(EL_ISA_AVX512)) return "scalar,avx2,avx512";
  if (el_isa_supported(EL_ISA_AVX2)) return "scalar,avx2";
  return "scalar";
#elif defined(__aarch64__)
  return el_isa_supported(EL_ISA_NEON_DOT) ? "scalar,neon,neon_dot" : "scalar,neon";
#else
  return "scalar";
#endif
}

void el_cpu_parallel(const el_cpu_backend* b, int tasks, int max_threads, el_task_fn fn, void* arg) {
  if (b == NULL || b->pool == NULL || max_threads <= 1) {
    for (int t = 0; t < tasks; ++t) fn(arg, t, 0);
    return;
  }
  el_threadpool_run(b->pool, tasks, max_threads < b->num_threads ? max_threads : b->num_threads, fn,
                    arg);
}
