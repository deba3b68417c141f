/* The kernel set, window checks, packing and the tiled matrix product of the training kernels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

int el_train_api_version(void) { return EL_TRAIN_API_VERSION; }

el_status el_train_kernels_create(const char* isa, int32_t num_threads, el_train_kernels** out) {
  if (out == NULL || num_threads < 1) return EL_VALUE_ERROR;
  *out = NULL;
  el_isa level;
  bool is_auto;
  if (!el_isa_parse(isa, &level, &is_auto) || !el_isa_supported(level)) return EL_VALUE_ERROR;
  el_train_kernels* k = calloc(1, sizeof *k);
  if (k == NULL) return EL_NO_MEMORY;
  k->isa = level;
  k->fk = el_fgemm_kernels_for(level);
  k->busy = malloc(sizeof *k->busy);
  if (k->busy == NULL || pthread_mutex_init(k->busy, NULL) != 0) {
    free(k->busy);
    free(k);
    return EL_NO_MEMORY;
  }
  /* A refused thread leaves one thread: slower, same results. */
  k->pool = num_threads > 1 ? el_threadpool_create(num_threads) : NULL;
  k->threads = el_threadpool_threads(k->pool);
  *out = k;
  return EL_OK;
}

void el_train_kernels_destroy(el_train_kernels* kernels) {
  if (kernels == NULL) return;
  el_threadpool_destroy(kernels->pool);
  pthread_mutex_destroy(kernels->busy);
  free(kernels->busy);
  free(kernels);
}

int32_t el_train_kernels_threads(const el_train_kernels* kernels) {
  return kernels ? kernels->threads : 0;
}

void el_train_parallel(const el_train_kernels* k, int tasks, el_task_fn fn, void* arg) {
  if (k->pool != NULL && tasks > 1 && pthread_mutex_trylock(k->busy) == 0) {
    el_threadpool_run(k->pool, tasks, k->threads, fn, arg);
    pthread_mutex_unlock(k->busy);
    return;
  }
  for (int t = 0; t < tasks; ++t) fn(arg, t, 0);
}

const char* el_train_kernels_isa(const el_train_kernels* kernels) {
  return kernels ? el_isa_name(kernels->isa) : "unknown";
}

el_status el_train_check_window(const el_train_window* g) {
  if (g == NULL) return EL_VALUE_ERROR;
  const int32_t positive[] = {g->batch,    g->in_h,     g->in_w,  g->in_c,  g->k_h,
                              g->k_w,      g->out_c,    g->stride_h, g->stride_w,
                              g->dil_h,    g->dil_w};
  for (size_t i = 0; i < sizeof positive / sizeof positive[0]; ++i) {
    if (positive[i] < 1) return EL_VALUE_ERROR;
  }
  if (g->pad_top < 0 || g->pad_left < 0 || g->out_h < 0 || g->out_w < 0) return EL_VALUE_ERROR;
  return EL_OK;
}

void el_train_pack_rows(const float* src, ptrdiff_t ld, int k, int n, float* packed) {
  for (int c0 = 0; c0 < n; c0 += EL_FGEMM_NR) {
    const int count = n - c0 < EL_FGEMM_NR ? n - c0 : EL_FGEMM_NR;
    float* dst = packed + (size_t)(c0 / EL_FGEMM_NR) * (size_t)k * EL_FGEMM_NR;
    if (count == EL_FGEMM_NR) {
      /* A fixed-size copy the compiler turns into one vector move (not a memcpy call per row). */
      for (int i = 0; i < k; ++i, dst += EL_FGEMM_NR) {
        for (int j = 0; j < EL_FGEMM_NR; ++j) dst[j] = src[i * ld + c0 + j];
      }
      continue;
    }
    for (int i = 0; i < k; ++i, dst += EL_FGEMM_NR) {
      memcpy(dst, src + i * ld + c0, (size_t)count * sizeof(float));
      for (int j = count; j < EL_FGEMM_NR; ++j) dst[j] = 0.0f;
    }
  }
}

const float el_train_zero_bias[EL_FGEMM_CHUNK + EL_FGEMM_NR];

void el_train_matmul(const el_fgemm_kernels* fk, int m, int n, int k, const float* a,
                     ptrdiff_t lda, const float* packed, float* out, ptrdiff_t ldo) {
  const size_t block_bytes = el_fgemm_block_bytes(k);
  const float* rows[EL_FGEMM_MAX_MR];
  for (int r0 = 0; r0 < m; r0 += fk->mr) {
    const int count = m - r0 < fk->mr ? m - r0 : fk->mr;
    for (int r = 0; r < fk->mr; ++r) rows[r] = a + (ptrdiff_t)(r0 + (r < count ? r : 0)) * lda;
    for (int c = 0; c < n; c += EL_FGEMM_CHUNK) {
      const int cn = n - c < EL_FGEMM_CHUNK ? n - c : EL_FGEMM_CHUNK;
      const float* w = packed + (size_t)(c / EL_FGEMM_NR) * (size_t)k * EL_FGEMM_NR;
      fk->gemm(k, rows, count, w, block_bytes, cn, el_train_zero_bias, -INFINITY, INFINITY,
               out + (ptrdiff_t)r0 * ldo + c, ldo);
    }
  }
}

void el_train_im2col_row(const el_train_window* g, const float* x, size_t p, float* col) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  const size_t b = p / per_image, rest = p % per_image;
  const int oh = (int)(rest / (size_t)g->out_w), ow = (int)(rest % (size_t)g->out_w);
  const size_t c = (size_t)g->in_c;
  const float* image = x + b * (size_t)g->in_h * (size_t)g->in_w * c;
  for (int i = 0; i < g->k_h; ++i) {
    const int ih = oh * g->stride_h + i * g->dil_h - g->pad_top;
    for (int j = 0; j < g->k_w; ++j, col += c) {
      const int iw = ow * g->stride_w + j * g->dil_w - g->pad_left;
      if (ih < 0 || ih >= g->in_h || iw < 0 || iw >= g->in_w) {
        memset(col, 0, c * sizeof(float));
      } else {
        memcpy(col, image + ((size_t)ih * (size_t)g->in_w + (size_t)iw) * c, c * sizeof(float));
      }
    }
  }
}
