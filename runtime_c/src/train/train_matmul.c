/* Dense matrix products of the SDK's MatMul / BatchMatMul and their gradients on the float GEMM
 * micro-kernels: out = op(a) . op(b) per matrix of a batch, op a transpose or not.
 *
 * The right operand is packed once per matrix (transposed or not, straight into the GEMM's
 * [k][16] blocks); a transposed left operand is copied to rows per task, into that thread's
 * scratch. Tasks are blocks of output rows of one matrix; each output is one micro-kernel sum
 * over the whole depth in order, so the bits do not depend on the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

/* Below this many multiply-adds per task a thread hand-off costs more than it saves. */
enum { MIN_TASK_MACS = 1 << 17, MAX_TASK_ROWS = 512 };

typedef struct matmul_job {
  const el_train_kernels* k;
  int m, n, depth;
  const float* a;
  int64_t a_stride;
  bool transpose_a;
  const float* packed; /* one packed right operand per matrix, or one shared (b_stride 0) */
  size_t packed_floats;
  bool shared_b;
  float* out;
  float* scratch;      /* task_rows x depth floats per thread (transposed left operand) */
  int task_rows, tasks_per_matrix;
} matmul_job;

/* Rows r0 .. r0 + rows - 1 of op(a) as `rows` runs of depth floats, copied from the columns of
 * a (depth x m) into dst, 16 depth steps at a time so that both sides stay in cache. */
static void gather_columns(const float* a, int m, int depth, int r0, int rows, float* dst) {
  for (int t0 = 0; t0 < depth; t0 += 16) {
    const int t1 = depth - t0 < 16 ? depth : t0 + 16;
    for (int r = 0; r < rows; ++r) {
      float* d = dst + (size_t)r * (size_t)depth;
      const float* src = a + (size_t)r0 + (size_t)r;
      for (int t = t0; t < t1; ++t) d[t] = src[(size_t)t * (size_t)m];
    }
  }
}

static void matmul_task(void* arg, int task, int thread) {
  const matmul_job* j = arg;
  const int matrix = task / j->tasks_per_matrix;
  const int r0 = (task % j->tasks_per_matrix) * j->task_rows;
  const int rows = j->m - r0 < j->task_rows ? j->m - r0 : j->task_rows;
  const float* a = j->a + (ptrdiff_t)matrix * j->a_stride;
  const float* left = a + (size_t)r0 * (size_t)j->depth;
  if (j->transpose_a) {
    float* cols = j->scratch + (size_t)thread * (size_t)j->task_rows * (size_t)j->depth;
    gather_columns(a, j->m, j->depth, r0, rows, cols);
    left = cols;
  }
  const float* packed = j->packed + (j->shared_b ? 0 : (size_t)matrix * j->packed_floats);
  float* out = j->out + ((size_t)matrix * (size_t)j->m + (size_t)r0) * (size_t)j->n;
  el_train_matmul(j->k->fk, rows, j->n, j->depth, left, j->depth, packed, out, j->n);
}

/* Rows per task: a multiple of the micro tile, at least MIN_TASK_MACS of work when there is
 * that much, and enough tasks to keep every thread busy. */
static int task_rows_for(const el_train_kernels* k, int batch, int m, int n, int depth) {
  const int mr = k->fk->mr;
  const int64_t per_row = (int64_t)n * (int64_t)(depth > 0 ? depth : 1);
  int64_t rows = (MIN_TASK_MACS + per_row - 1) / per_row;
  const int64_t spread = ((int64_t)m * batch + 4 * k->threads - 1) / (4 * k->threads);
  if (rows < spread) rows = spread;
  if (rows > MAX_TASK_ROWS) rows = MAX_TASK_ROWS;
  rows = (rows + mr - 1) / mr * mr;
  return rows < m ? (int)rows : m;
}

el_status el_train_mat_mul(const el_train_kernels* k, int32_t batch, int32_t m, int32_t n,
                           int32_t depth, const float* a, int64_t a_stride, int32_t transpose_a,
                           const float* b, int64_t b_stride, int32_t transpose_b, float* out) {
  if (k == NULL || out == NULL || batch < 0 || m < 0 || n < 0 || depth < 0 || a_stride < 0 ||
      b_stride < 0) {
    return EL_VALUE_ERROR;
  }
  if (batch == 0 || m == 0 || n == 0) return EL_OK;
  if (depth == 0) {
    memset(out, 0, (size_t)batch * (size_t)m * (size_t)n * sizeof(float));
    return EL_OK;
  }
  if (a == NULL || b == NULL) return EL_VALUE_ERROR;
  const bool shared_b = b_stride == 0 || batch == 1;
  const int packs = shared_b ? 1 : batch;
  const size_t packed_floats = el_train_packed_floats(depth, n);
  matmul_job j = {k, m, n, depth, a, a_stride, transpose_a != 0, NULL, packed_floats, shared_b,
                  out, NULL, task_rows_for(k, batch, m, n, depth), 0};
  j.tasks_per_matrix = (m + j.task_rows - 1) / j.task_rows;
  float* packed = malloc((size_t)packs * packed_floats * sizeof(float));
  float* scratch = NULL;
  if (packed == NULL) return EL_NO_MEMORY;
  if (j.transpose_a) {
    scratch = malloc((size_t)k->threads * (size_t)j.task_rows * (size_t)depth * sizeof(float));
    if (scratch == NULL) {
      free(packed);
      return EL_NO_MEMORY;
    }
  }
  for (int p = 0; p < packs; ++p) {
    const float* bp = b + (ptrdiff_t)p * b_stride;
    float* dst = packed + (size_t)p * packed_floats;
    if (transpose_b) {
      el_fgemm_pack(bp, n, depth, dst);
    } else {
      el_train_pack_rows(bp, n, depth, n, dst);
    }
  }
  j.packed = packed;
  j.scratch = scratch;
  el_train_parallel(k, batch * j.tasks_per_matrix, matmul_task, &j);
  free(scratch);
  free(packed);
  return EL_OK;
}
