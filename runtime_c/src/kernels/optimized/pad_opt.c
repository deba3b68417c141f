/* Optimized PAD and PADV2 with constant paddings: every output byte written once. Trailing
 * dimensions without padding merge into the one before them (so an NHWC pad of H and W copies
 * whole W x C runs), then each output block is its leading fill, the input rows copied in place
 * (recursing over inner dimensions) and its trailing fill. The reference fills the whole output
 * first and copies the rows over it; the bytes are the same.
 *
 * The reference PAD keeps its state private, so this registration holds it apart and hands it
 * to the reference prepare/invoke in node->user_data for the duration of the call. */
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"

typedef struct opt_pad_state {
  void* ref_state;
  const TfLiteRegistration* ref;
  int fast;
  int rank; /* after merging */
  size_t es;
  int64_t in_dims[EL_MAX_DIMS];
  int64_t before[EL_MAX_DIMS], after[EL_MAX_DIMS]; /* in steps of the dimension */
  size_t out_step[EL_MAX_DIMS], in_step[EL_MAX_DIMS]; /* bytes per step of the dimension */
} opt_pad_state;

static void* opt_pad_init(TfLiteContext* ctx, const char* buf, size_t len,
                          const TfLiteRegistration* ref) {
  opt_pad_state* s = (opt_pad_state*)el_kernel_alloc(sizeof(opt_pad_state));
  if (s == NULL) return NULL;
  s->ref = ref;
  s->ref_state = ref->init ? ref->init(ctx, buf, len) : NULL;
  return s;
}

static void* opt_pad_init_v1(TfLiteContext* ctx, const char* buf, size_t len) {
  return opt_pad_init(ctx, buf, len, &el_ref_pad);
}

static void* opt_pad_init_v2(TfLiteContext* ctx, const char* buf, size_t len) {
  return opt_pad_init(ctx, buf, len, &el_ref_padv2);
}

static void opt_pad_free(TfLiteContext* ctx, void* buffer) {
  opt_pad_state* s = (opt_pad_state*)buffer;
  if (s == NULL) return;
  if (s->ref->free) s->ref->free(ctx, s->ref_state);
  el_kernel_free(ctx, s);
}

/* Runs a reference callback with the reference state in node->user_data. */
static TfLiteStatus with_ref_state(TfLiteContext* ctx, TfLiteNode* node,
                                   TfLiteStatus (*fn)(TfLiteContext*, TfLiteNode*)) {
  opt_pad_state* s = (opt_pad_state*)node->user_data;
  node->user_data = s->ref_state;
  const TfLiteStatus st = fn(ctx, node);
  s->ref_state = node->user_data;
  node->user_data = s;
  return st;
}

static TfLiteStatus opt_pad_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  opt_pad_state* s = (opt_pad_state*)node->user_data;
  EL_ENSURE_OK(ctx, with_ref_state(ctx, node, s->ref->prepare));
  s->fast = 0;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* paddings = el_optional_input(ctx, node, 1);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const int rank = el_ndims(in);
  if (el_is_dynamic(out) || rank < 1 || rank > EL_MAX_DIMS) return kTfLiteOk;
  s->es = el_type_size(in->type);
  if (s->es == 0 || s->es > 8) return kTfLiteOk;
  /* Merge each dimension without padding into the one before it (the reference prepare has
   * checked the paddings and sized the output). */
  int n = 0;
  for (int i = 0; i < rank; ++i) {
    const int64_t before = el_read_index(paddings, 2 * i);
    const int64_t after = el_read_index(paddings, 2 * i + 1);
    const int64_t extent = el_dim(in, i);
    if (n > 0 && before == 0 && after == 0) {
      s->in_dims[n - 1] *= extent;
      s->before[n - 1] *= extent;
      s->after[n - 1] *= extent;
      continue;
    }
    s->in_dims[n] = extent;
    s->before[n] = before;
    s->after[n] = after;
    ++n;
  }
  s->rank = n;
  size_t out_step = s->es, in_step = s->es;
  for (int k = n - 1; k >= 0; --k) {
    s->out_step[k] = out_step;
    s->in_step[k] = in_step;
    out_step *= (size_t)(s->before[k] + s->in_dims[k] + s->after[k]);
    in_step *= (size_t)s->in_dims[k];
  }
  s->fast = 1;
  return kTfLiteOk;
}

/* `bytes` of the fill value from dst on (a whole number of elements). */
static void fill(uint8_t* dst, size_t bytes, const uint8_t* value, size_t es, int uniform) {
  if (bytes == 0) return;
  if (uniform) {
    memset(dst, value[0], bytes);
    return;
  }
  memcpy(dst, value, es);
  size_t done = es;
  while (done < bytes) {
    const size_t n = done < bytes - done ? done : bytes - done;
    memcpy(dst + done, dst, n);
    done += n;
  }
}

typedef struct pad_fill {
  uint8_t value[8];
  int uniform;
} pad_fill;

static void pad_block(const opt_pad_state* s, const pad_fill* f, int k, const uint8_t* src,
                      uint8_t* dst) {
  const size_t step = s->out_step[k];
  fill(dst, (size_t)s->before[k] * step, f->value, s->es, f->uniform);
  dst += (size_t)s->before[k] * step;
  if (k == s->rank - 1) {
    memcpy(dst, src, (size_t)s->in_dims[k] * step);
  } else {
    for (int64_t i = 0; i < s->in_dims[k]; ++i) {
      pad_block(s, f, k + 1, src + (size_t)i * s->in_step[k], dst + (size_t)i * step);
    }
  }
  fill(dst + (size_t)s->in_dims[k] * step, (size_t)s->after[k] * step, f->value, s->es,
       f->uniform);
}

static TfLiteStatus opt_pad_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_pad_state* s = (const opt_pad_state*)node->user_data;
  if (!s->fast) return with_ref_state(ctx, node, s->ref->invoke);
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* value = el_optional_input(ctx, node, 2);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (out->bytes == 0) return kTfLiteOk;
  EL_ENSURE(ctx, out->data.raw != NULL);
  /* The reference's fill: the constant operand, else the zero point of 8/16-bit integers. */
  pad_fill f;
  memset(f.value, 0, sizeof f.value);
  if (value != NULL) {
    EL_ENSURE(ctx, value->data.raw_const != NULL);
    memcpy(f.value, value->data.raw_const, s->es);
  } else if (in->type == kTfLiteInt8 || in->type == kTfLiteUInt8) {
    f.value[0] = (uint8_t)out->params.zero_point;
  } else if (in->type == kTfLiteInt16) {
    const int16_t zp = (int16_t)out->params.zero_point;
    memcpy(f.value, &zp, sizeof zp);
  }
  f.uniform = 1;
  for (size_t b = 1; b < s->es; ++b) f.uniform &= f.value[b] == f.value[0];
  uint8_t* dst = (uint8_t*)out->data.raw;
  if (el_num_elements(in) == 0) {
    fill(dst, out->bytes, f.value, s->es, f.uniform);
    return kTfLiteOk;
  }
  EL_ENSURE(ctx, in->data.raw_const != NULL);
  pad_block(s, &f, 0, (const uint8_t*)in->data.raw_const, dst);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_pad =
    EL_REGISTRATION(opt_pad_init_v1, opt_pad_free, opt_pad_prepare, opt_pad_invoke, EL_OP_PAD);
const TfLiteRegistration el_opt_padv2 =
    EL_REGISTRATION(opt_pad_init_v2, opt_pad_free, opt_pad_prepare, opt_pad_invoke, EL_OP_PADV2);
