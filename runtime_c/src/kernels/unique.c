/* UNIQUE: the distinct values of a vector in order of first appearance (output 0, sized during
 * invoke) and, for every element, the position of its value among them (output 1, int32 or
 * int64 as the options say). Distinct values are found through an open-addressing hash table of
 * first-appearance positions in a scratch buffer sized in prepare. Floats compare with ==, so
 * 0.0 and -0.0 are one value (the first one seen) and every NaN is a value of its own. */
#include <string.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/cov_util.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"

/* Hash-table slots are a power of two at least twice the element count; this bound keeps
 * the scratch size and every slot index inside int32. */
enum { MAX_ELEMENTS = 1 << 28 };

typedef struct unique_data {
  int scratch;
  int64_t slots; /* hash-table size (a power of two) */
} unique_data;

static void* unique_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(unique_data));
}

static bool supported(TfLiteType t) {
  return t == kTfLiteFloat32 || t == kTfLiteInt8 || t == kTfLiteUInt8 || t == kTfLiteInt16 || t == kTfLiteInt32 ||
         t == kTfLiteInt64;
}

static TfLiteStatus unique_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 2));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "UNIQUE has no options.");
  const TfLiteUniqueParams* p = node->builtin_data;
  unique_data* d = node->user_data;
  const TfLiteTensor* in;
  TfLiteTensor *values, *index;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &in));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &values));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 1, &index));
  if (!supported(in->type)) return el_unsupported_type(ctx, "UNIQUE", in->type);
  EL_ENSURE_TYPES_EQ(ctx, values->type, in->type);
  EL_ENSURE_MSG(ctx, p->index_out_type == kTfLiteInt32 || p->index_out_type == kTfLiteInt64,
                "UNIQUE: index output type must be int32 or int64.");
  EL_ENSURE_TYPES_EQ(ctx, index->type, p->index_out_type);
  EL_ENSURE_EQ(ctx, el_ndims(in), 1);
  const int64_t n = el_num_elements(in);
  EL_ENSURE_MSG(ctx, n <= MAX_ELEMENTS, "UNIQUE: input has too many elements.");
  d->slots = 1;
  while (d->slots < 2 * n) d->slots *= 2;
  /* The table, then the first-appearance position of each distinct value in order. */
  EL_ENSURE_OK(ctx, ctx->RequestScratchBufferInArena(ctx, (size_t)(d->slots + n) * sizeof(int32_t), &d->scratch));
  el_set_dynamic(values);
  return el_resize_like(ctx, index, in);
}

static bool is_float(const TfLiteTensor* t) { return t->type == kTfLiteFloat32; }

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

static uint64_t hash_of(const TfLiteTensor* t, int64_t i) {
  if (is_float(t)) {
    float f = t->data.f[i];
    if (f == 0.0f) f = 0.0f;  /* -0.0 hashes like 0.0, which it equals */
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return mix(bits);
  }
  return mix((uint64_t)el_cov_get_i64(t, i));
}

static bool same(const TfLiteTensor* t, int64_t a, int64_t b) {
  if (is_float(t)) return t->data.f[a] == t->data.f[b];
  return el_cov_get_i64(t, a) == el_cov_get_i64(t, b);
}

static TfLiteStatus unique_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const unique_data* d = node->user_data;
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* values = &ctx->tensors[node->outputs->data[0]];
  TfLiteTensor* index = &ctx->tensors[node->outputs->data[1]];
  const int64_t n = el_num_elements(in);
  int32_t* table = ctx->GetScratchBuffer(ctx, d->scratch);
  EL_ENSURE(ctx, table != NULL);
  int32_t* firsts = table + d->slots;
  /* Slots hold distinct-value numbers + 1 (0: empty). */
  memset(table, 0, (size_t)d->slots * sizeof(int32_t));
  const uint64_t mask = (uint64_t)d->slots - 1;
  int32_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t s = hash_of(in, i) & mask;
    while (table[s] != 0 && !same(in, firsts[table[s] - 1], i)) s = (s + 1) & mask;
    if (table[s] == 0) {
      firsts[count] = (int32_t)i;
      table[s] = ++count;
    }
    el_cov_set_i64(index, i, table[s] - 1);
  }
  int dims[1] = {count};
  EL_ENSURE_OK(ctx, el_resize(ctx, values, 1, dims));
  const size_t elem = el_type_size(in->type);
  for (int32_t k = 0; k < count; ++k) {
    memcpy(values->data.raw + (size_t)k * elem, in->data.raw + (size_t)firsts[k] * elem, elem);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_unique = EL_REGISTRATION(unique_init, el_kernel_free, unique_prepare, unique_invoke,
                                                         EL_OP_UNIQUE);
