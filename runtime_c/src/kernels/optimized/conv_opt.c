/* Optimized CONV_2D: the convolution as a matrix product of im2col rows (one per output pixel)
 * with weights packed once in prepare. Rows are gathered per micro tile into per-thread scratch,
 * except on the indirect path (AVX-512 VNNI, int8) where the kernel reads every tap in place
 * through a table of tap offsets built in prepare, float32 with dilation 1 along x, whose kernel
 * reads each filter row in place through pointers made per tile (fconv_taps.h), and a 1x1
 * stride-1 convolution, which reads its rows straight from the input. An int8 tap is one input
 * pixel's channels when they are a multiple of 4, else a whole filter row (row taps).
 *
 * int8 (per-channel) and uint8 (per-tensor) give the reference bits: the accumulators are the
 * same integers and the requantization is the reference one. Float32 sums in another order, so
 * it matches the reference to float rounding. Hybrid models (float activations, int8 weights)
 * quantize the input once per invoke exactly as the reference kernel does, take the integer
 * accumulators from the same products, and scale them back in the reference's order, so they
 * give the reference's floats. Grouped convolutions, 16x8 models and non-constant weights run
 * the reference kernel. */
#include <string.h>

#include "kernels/conv.h"
#include "kernels/kernels.h"
#include "kernels/optimized/conv16_opt.h"
#include "kernels/optimized/conv_geom.h"
#include "kernels/optimized/fconv_planes.h"
#include "kernels/optimized/fconv_taps.h"
#include "kernels/optimized/fgemm.h"
#include "kernels/optimized/hconv_epilogue.h"
#include "kernels/optimized/hconv_image.h"
#include "kernels/optimized/hybrid_opt.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/optimized/qgemm.h"
#include "kernels/quant_util.h"
#include "pad_fold.h"

typedef enum conv_path {
  PATH_REFERENCE = 0,
  PATH_Q8 = 1,
  PATH_F32 = 2,
  PATH_Q8_INDIRECT = 3,
  PATH_HYBRID = 4,
  PATH_I16 = 5 /* int16 activations, int8 weights: conv16_opt.h */
} conv_path;

enum { MAX_TAPS = 256, POINTWISE_GROUP = 8, NARROW_TAPS_MAX_KDIM = 64 };

/* Largest table of tap offsets built in prepare; bigger convolutions compute them per tile. */
#define MAX_TAP_TABLE_BYTES ((size_t)4 << 20)
/* Largest padded copy of a row-tap convolution's input (see el_opt_conv.image). */
#define MAX_ROW_TAP_IMAGE_BYTES ((int64_t)32 << 10)

static void tap_offsets(const el_conv_geom* g, int64_t m0, int rows, int mr, int32_t* off);

typedef struct el_opt_conv {
  el_conv_data ref; /* first: the reference kernel runs on the same user_data */
  conv_path path;
  el_conv16 c16; /* PATH_I16 */
  el_conv_geom g;
  int input; /* the tensor g describes: input 0, or the input of a PAD folded in (pad_fold.h) */
  int threads;
  el_opt_scratch scratch;
  size_t packed_cap;
  void* packed; /* weights, in the layout of qk / fk */
  size_t block_bytes;
  int kp;
  int nblocks;
  /* integer path */
  const el_qgemm_kernels* qk;
  int channel_cap;
  int32_t* bias; /* folded, per channel, padded to whole blocks */
  int32_t* mult;
  int32_t* lshift;
  int32_t* rshift;
  el_requant rq;
  int is_unsigned;
  int32_t in_off;
  uint8_t pad_byte; /* QUAD: the A byte of a tap outside the image */
  el_rq_block* blocks;
  int blocks_cap;
  int8_t* zero_row; /* indirect path: cin input zero points, read for taps outside the image */
  int zero_cap;
  int32_t* tap_offsets; /* indirect path: input offset of every tap of every tile (-1: outside) */
  size_t tap_offsets_cap;
  int use_tap_table;
  int taps, tap_len; /* indirect path: taps per pixel and bytes read per tap */
  /* Row taps (few input channels): a tap is a filter row, kw * in_c bytes rounded up to tap_len;
   * runs partly outside the image are gathered per invoke into `edges` (after a zero row) from
   * edge_src, where the table's negative offsets point. */
  int row_taps;
  int32_t* edge_src;
  size_t edge_src_cap;
  int64_t edge_count;
  el_opt_scratch edges;
  /* Small padded maps: the input is copied per invoke into a persistent image with a border of
   * zero points, so runs read it in place (on an 8x8 map with a 3x3 filter, 28 of the 64 pixels
   * have runs crossing the border; gathering them cost more than the products). image_geom is
   * the image's (VALID) geometry, which the tap table and edge sources refer to. */
  int8_t* image; /* NULL: the taps read the input */
  int8_t* image_buffer;
  size_t image_cap;
  el_conv_geom image_geom;
  /* float path */
  const el_fgemm_kernels* fk;
  int narrow; /* float, at most 16 channels: fk->igemm_narrow's tiles */
  const el_quant_kernels* quant; /* hybrid: the input quantization step */
  float* fbias;
  float act_lo, act_hi;
  int f32_taps; /* filter rows read in place (fconv_taps.h), not gathered by im2col */
  float* fpadded; /* small images: the padded copy the taps read (NULL: the input) */
  float* fpadded_buffer;
  size_t fpadded_cap;
  el_conv_geom fpadded_geom;
  int f32_planes; /* few input channels into 8: fconv_planes.h */
  el_fconv_planes planes;
  float* planes_buffer;
  size_t planes_cap;
  /* hybrid path: the weight sums are in `bias`, the float bias in `fbias` */
  el_opt_scratch qinput; /* the quantized input, then per batch its scale and zero point */
  size_t qinput_bytes;
  const float* channel_scales;
  int per_channel_scales; /* channel_scales has one entry per output channel */
  int asymmetric;         /* the reference's per-channel form: asymmetric input quantization */
  int hy_image;           /* QUAD kernels: the input laid out as hconv_image.h describes */
  el_conv_geom hy_geom;   /* that image's geometry */
  size_t hy_bytes;
  el_opt_scratch hy_scratch;
  el_hconv_row_fn hy_row; /* the float epilogue (hconv_epilogue.h) */
  el_hconv_epilogue hy_epilogue;
  int has_bias;
} el_opt_conv;

static void* opt_conv_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_opt_conv));
}

static TfLiteStatus channel_arrays(TfLiteContext* ctx, el_opt_conv* s, int padded) {
  if (s->channel_cap >= padded) return kTfLiteOk;
  const size_t bytes = (size_t)padded * sizeof(int32_t);
  s->bias = (int32_t*)el_opt_persistent(ctx, bytes);
  s->mult = (int32_t*)el_opt_persistent(ctx, bytes);
  s->lshift = (int32_t*)el_opt_persistent(ctx, bytes);
  s->rshift = (int32_t*)el_opt_persistent(ctx, bytes);
  s->fbias = (float*)el_opt_persistent(ctx, (size_t)padded * sizeof(float));
  EL_ENSURE(ctx, s->bias && s->mult && s->lshift && s->rshift && s->fbias);
  s->channel_cap = padded;
  return kTfLiteOk;
}

static TfLiteStatus packed_buffer(TfLiteContext* ctx, el_opt_conv* s, size_t bytes) {
  if (s->packed_cap >= bytes) return kTfLiteOk;
  s->packed = el_opt_persistent(ctx, bytes);
  EL_ENSURE(ctx, s->packed != NULL);
  s->packed_cap = bytes;
  return kTfLiteOk;
}

/* Few input channels (not a multiple of 4) make im2col copies of a few bytes per tap; reading
 * whole filter rows in place instead costs the rounding of each row to 4 bytes in products,
 * taken when it at most doubles them. Needs dilation 1 along x and a table of every tile's taps;
 * the bytes past each run meet zero weights. */
static int use_row_taps(const el_conv_geom* g, const el_qgemm_kernels* qk, int is_unsigned) {
  if (qk->igemm == NULL || is_unsigned || g->in_c % 4 == 0 || g->dw != 1 ||
      g->kh > MAX_TAPS) {
    return 0;
  }
  const int64_t span = (g->kw * g->in_c + 3) / 4 * 4;
  const int64_t tiles = (g->m + qk->igemm_mr - 1) / qk->igemm_mr;
  const int64_t table = tiles * g->kh * qk->igemm_mr * (int64_t)sizeof(int32_t);
  const int64_t elements = (int64_t)g->batches * g->in_h * g->in_w * g->in_c;
  /* Edge entries (at most one per table entry) are addressed by int32 byte offsets too. */
  const int64_t aux = (table / (int64_t)sizeof(int32_t) + 1) * span;
  return span * g->kh <= 2 * (int64_t)el_qgemm_kp(qk, g->kdim) &&
         table <= (int64_t)MAX_TAP_TABLE_BYTES && elements + span < INT32_MAX && aux < INT32_MAX;
}

/* The row-tap table and the edge runs' sources, and the scratch the runs are gathered into. */
static TfLiteStatus prepare_row_taps(TfLiteContext* ctx, el_opt_conv* s, size_t table) {
  const el_conv_geom* g = &s->g;
  const int mr = s->qk->igemm_mr;
  s->image = NULL;
  const int64_t image_bytes = el_fconv_padded_geom(&s->g, &s->image_geom);
  if (image_bytes > 0 && image_bytes <= MAX_ROW_TAP_IMAGE_BYTES) {
    if (s->image_cap < (size_t)image_bytes) {
      s->image_buffer = (int8_t*)el_opt_persistent(ctx, (size_t)image_bytes);
      EL_ENSURE(ctx, s->image_buffer != NULL);
      s->image_cap = (size_t)image_bytes;
    }
    s->image = s->image_buffer;
    g = &s->image_geom;
  }
  if (s->tap_offsets_cap < table) {
    s->tap_offsets = (int32_t*)el_opt_persistent(ctx, table);
    EL_ENSURE(ctx, s->tap_offsets != NULL);
    s->tap_offsets_cap = table;
  }
  s->edge_count = el_conv_row_taps(g, s->tap_len, mr, NULL, NULL);
  const size_t src_bytes = (size_t)s->edge_count * (size_t)g->kw * sizeof(int32_t);
  if (s->edge_src_cap < src_bytes) {
    s->edge_src = (int32_t*)el_opt_persistent(ctx, src_bytes);
    EL_ENSURE(ctx, s->edge_src != NULL);
    s->edge_src_cap = src_bytes;
  }
  el_conv_row_taps(g, s->tap_len, mr, s->tap_offsets, s->edge_src);
  return el_opt_request_scratch(ctx, (size_t)(s->edge_count + 1) * (size_t)s->tap_len, 1, &s->edges);
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, TfLiteNode* node, el_opt_conv* s,
                               const TfLiteTensor* input, const TfLiteTensor* filter,
                               const TfLiteTensor* bias, const TfLiteTensor* output) {
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  const el_isa isa = el_context_isa(ctx);
  s->is_unsigned = input->type == kTfLiteUInt8;
  s->qk = el_qgemm_kernels_for(isa);
  if (s->is_unsigned && s->qk->format == EL_QFORMAT_QUAD) s->qk = el_qgemm_kernels_for(isa - 1);
  const el_conv_geom* g = &s->g;
  /* int8 1x1 convolutions on AMX tiles: rows read in place, so the indirect path below. Below
   * 64 input channels a tile pass is mostly fixed cost (zeroing, tile latency, stores) that
   * VNNI's few dot steps undercut, unless 128+ output channels keep the tiles busy (measured
   * per layer on MobileNetV2/VWW: 8-32 -> 16-96 channels 1.2-2.0x slower on AMX, 24 -> 144 and
   * 32 -> 192 0.83-0.95x, 64+ input channels 0.28-0.83x). */
  const el_cpu_backend* backend = el_context_backend(ctx);
  const int amx_fits = g->in_c >= 64 || (g->in_c >= 24 && g->out_c >= 128);
  if (backend != NULL && backend->amx_int8 && !s->is_unsigned && g->pointwise && amx_fits &&
      g->in_c % 4 == 0 && el_num_elements(input) < INT32_MAX) {
    s->qk = el_qgemm_amx_pointwise();
  }
  const el_qgemm_kernels* qk = s->qk;
  const int n = g->out_c;
  s->kp = el_qgemm_kp(qk, g->kdim);
  s->nblocks = (n + EL_QGEMM_NR - 1) / EL_QGEMM_NR;
  const int padded = s->nblocks * EL_QGEMM_NR;
  EL_ENSURE_OK(ctx, channel_arrays(ctx, s, padded));
  memset(s->bias, 0, (size_t)padded * sizeof(int32_t));
  memset(s->mult, 0, (size_t)padded * sizeof(int32_t));
  memset(s->lshift, 0, (size_t)padded * sizeof(int32_t));
  memset(s->rshift, 0, (size_t)padded * sizeof(int32_t));

  /* The reference multipliers, split into TFLite's left and right shifts. */
  if (s->is_unsigned) {
    double real = 0.0;
    EL_ENSURE_OK(ctx, el_q_legacy_conv_multiplier(ctx, input, filter, bias, output, &real));
    int32_t q = 0;
    int shift = 0;
    el_q_quantize_multiplier(real, &q, &shift);
    for (int c = 0; c < n; ++c) {
      s->mult[c] = q;
      s->lshift[c] = shift;
    }
  } else {
    EL_ENSURE_OK(ctx, el_q_conv_multipliers(ctx, input, filter, output, n, s->mult, s->lshift));
  }
  for (int c = 0; c < n; ++c) {
    const int shift = s->lshift[c];
    s->lshift[c] = shift > 0 ? shift : 0;
    s->rshift[c] = shift > 0 ? 0 : -shift;
  }
  int32_t lo = 0, hi = 0;
  EL_ENSURE_OK(ctx, el_q_activation_range(params->activation, output->type, output->params.scale,
                                          output->params.zero_point, &lo, &hi));

  const int32_t w_off = s->is_unsigned ? -filter->params.zero_point : 0;
  s->row_taps = use_row_taps(g, qk, s->is_unsigned);
  const int indirect =
      s->row_taps || (qk->igemm != NULL && !s->is_unsigned && g->in_c % 4 == 0 &&
                      g->kh * g->kw <= MAX_TAPS && el_num_elements(input) < INT32_MAX);
  s->taps = s->row_taps ? g->kh : g->kh * g->kw;
  s->tap_len = s->row_taps ? (g->kw * g->in_c + 3) / 4 * 4 : g->in_c;
  if (s->row_taps) s->kp = s->taps * s->tap_len;
  s->block_bytes = el_qgemm_block_bytes(qk->format, s->kp);
  EL_ENSURE_OK(ctx, packed_buffer(ctx, s, s->block_bytes * (size_t)s->nblocks));
  /* The weight sums land in the bias array and are folded right below. */
  el_qgemm_pack_groups(qk->format, filter->data.raw_const, s->is_unsigned, w_off, n,
                       s->row_taps ? g->kh : 1,
                       s->row_taps ? g->kw * g->in_c : g->kdim, s->row_taps ? s->tap_len : g->kdim,
                       s->kp, s->packed, s->bias);
  s->in_off = -input->params.zero_point;
  /* QUAD sums the A bytes as stored (the indirect kernel XORs them as the packs do): the input
   * offset, less what a_xor added, comes back through the weight sums. */
  const int32_t a_bias = qk->a_xor ? 128 : 0;
  for (int c = 0; c < n; ++c) {
    const int32_t b = bias ? bias->data.i32[c] : 0;
    s->bias[c] = qk->format == EL_QFORMAT_QUAD ? el_wrap_fold(b, s->in_off - a_bias, s->bias[c]) : b;
  }
  s->pad_byte = (uint8_t)((uint8_t)input->params.zero_point ^ qk->a_xor);
  s->rq.bias = s->bias;
  s->rq.mult = s->mult;
  s->rq.lshift = s->lshift;
  s->rq.rshift = s->rshift;
  s->rq.out_zp = output->params.zero_point;
  s->rq.act_min = lo;
  s->rq.act_max = hi;
  s->rq.any_lshift = 0;
  for (int c = 0; c < n; ++c) s->rq.any_lshift |= s->lshift[c] != 0;
  if (s->blocks_cap < s->nblocks) {
    s->blocks = (el_rq_block*)el_opt_persistent(ctx, sizeof(el_rq_block) * (size_t)s->nblocks);
    EL_ENSURE(ctx, s->blocks != NULL);
    s->blocks_cap = s->nblocks;
  }
  el_rq_blocks_build(&s->rq, n, s->blocks);
  s->rq.blocks = s->blocks;
  if (indirect) {
    /* Rows are read in place (tap by tap): no im2col scratch. */
    if (s->zero_cap < g->in_c) {
      s->zero_row = (int8_t*)el_opt_persistent(ctx, (size_t)g->in_c);
      EL_ENSURE(ctx, s->zero_row != NULL);
      s->zero_cap = g->in_c;
    }
    memset(s->zero_row, (uint8_t)input->params.zero_point, (size_t)g->in_c);
    /* Where every tap of every output pixel reads: a table made once, as the input may only
     * move between invokes, not its layout. */
    const int taps = s->taps;
    const int mr = qk->igemm_mr;
    const int64_t tiles = (g->m + mr - 1) / mr;
    const size_t table = (size_t)tiles * (size_t)taps * (size_t)mr * sizeof(int32_t);
    const int fits = table <= MAX_TAP_TABLE_BYTES;
    if (s->row_taps) {
      EL_ENSURE_OK(ctx, prepare_row_taps(ctx, s, table));
    } else if (!g->pointwise && fits) {
      if (s->tap_offsets_cap < table) {
        s->tap_offsets = (int32_t*)el_opt_persistent(ctx, table);
        EL_ENSURE(ctx, s->tap_offsets != NULL);
        s->tap_offsets_cap = table;
      }
      for (int64_t t = 0; t < tiles; ++t) {
        const int64_t m0 = t * mr;
        const int rows = (int)(g->m - m0 < mr ? g->m - m0 : mr);
        tap_offsets(g, m0, rows, mr, s->tap_offsets + t * taps * mr);
      }
    }
    s->use_tap_table = s->row_taps || (!g->pointwise && fits);
    EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, sizeof(int32_t) * (size_t)(taps * mr),
                                             s->threads, &s->scratch));
    s->path = PATH_Q8_INDIRECT;
    return kTfLiteOk;
  }
  const size_t elem = qk->format == EL_QFORMAT_QUAD ? 1 : 2;
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, (size_t)qk->mr * (size_t)s->kp * elem, s->threads,
                                           &s->scratch));
  s->path = PATH_Q8;
  return kTfLiteOk;
}

/* Small padded images: the padded copy with its zero border. */
static TfLiteStatus prepare_f32_taps(TfLiteContext* ctx, el_opt_conv* s) {
  const el_conv_geom* g = &s->g;
  const int64_t floats = el_fconv_padded_geom(g, &s->fpadded_geom);
  if (floats == 0 || floats > EL_FCONV_PADDED_MAX_FLOATS) return kTfLiteOk;
  const size_t bytes = (size_t)floats * sizeof(float);
  if (s->fpadded_cap < bytes) {
    s->fpadded_buffer = (float*)el_opt_persistent(ctx, bytes);
    EL_ENSURE(ctx, s->fpadded_buffer != NULL);
    s->fpadded_cap = bytes;
  }
  s->fpadded = s->fpadded_buffer;
  memset(s->fpadded, 0, bytes);
  return kTfLiteOk;
}

static TfLiteStatus prepare_f32(TfLiteContext* ctx, TfLiteNode* node, el_opt_conv* s,
                                const TfLiteTensor* filter, const TfLiteTensor* bias) {
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  s->fk = el_fgemm_kernels_for(el_context_isa(ctx));
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  s->kp = g->kdim;
  s->nblocks = (n + EL_FGEMM_NR - 1) / EL_FGEMM_NR;
  const int padded = s->nblocks * EL_FGEMM_NR;
  EL_ENSURE_OK(ctx, channel_arrays(ctx, s, padded));
  memset(s->fbias, 0, (size_t)padded * sizeof(float));
  for (int c = 0; c < n; ++c) s->fbias[c] = bias ? bias->data.f[c] : 0.0f;
  s->block_bytes = el_fgemm_block_bytes(g->kdim);
  EL_ENSURE_OK(ctx, packed_buffer(ctx, s, s->block_bytes * (size_t)s->nblocks));
  el_fgemm_pack(filter->data.f, n, g->kdim, (float*)s->packed);
  el_activation_range_f32(params->activation, &s->act_lo, &s->act_hi);
  s->f32_planes = el_fconv_planes_ok(g, el_context_isa(ctx));
  if (s->f32_planes) {
    const size_t bytes = (size_t)(el_fconv_planes_floats(g) + (int64_t)g->kdim * EL_FCONV_PLANES_OUT_C) *
                         sizeof(float);
    if (s->planes_cap < bytes) {
      s->planes_buffer = (float*)el_opt_persistent(ctx, bytes);
      EL_ENSURE(ctx, s->planes_buffer != NULL);
      s->planes_cap = bytes;
    }
    el_fconv_planes_init(&s->planes, g, s->planes_buffer,
                         s->planes_buffer + el_fconv_planes_floats(g), filter->data.f, s->fbias,
                         s->act_lo, s->act_hi);
  }
  s->f32_taps = el_fconv_taps_ok(g);
  s->fpadded = NULL;
  if (s->f32_taps) EL_ENSURE_OK(ctx, prepare_f32_taps(ctx, s));
  /* At most 16 channels: the narrow kernel's tiles, for 1x1 and in-place taps (short filter rows
   * only: its edge scratch grows with the tile, and longer rows keep the FMA units busy anyway). */
  s->narrow = n <= EL_FGEMM_NR && s->fk->igemm_narrow != NULL &&
              (g->pointwise || (s->f32_taps && g->kdim <= NARROW_TAPS_MAX_KDIM));
  /* im2col rows, or the gathered pixels of the in-place taps (as many floats). */
  const int tile = s->narrow ? EL_FGEMM_NARROW_MR : s->fk->mr;
  const size_t rows = g->pointwise || s->f32_planes ? 0 : (size_t)tile * (size_t)g->kdim * sizeof(float);
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, rows, s->threads, &s->scratch));
  s->path = PATH_F32;
  return kTfLiteOk;
}

/* Float input and output, int8 weights with one scale or one per output channel. */
static TfLiteStatus prepare_hybrid(TfLiteContext* ctx, TfLiteNode* node, el_opt_conv* s,
                                   const TfLiteTensor* input, const TfLiteTensor* filter,
                                   const TfLiteTensor* bias) {
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  const TfLiteAffineQuantization* aq =
      filter->quantization.type == kTfLiteAffineQuantization
          ? (const TfLiteAffineQuantization*)filter->quantization.params
          : NULL;
  if (aq == NULL || aq->scale == NULL || aq->scale->size < 1) return kTfLiteOk;
  if (aq->scale->size > 1 && (aq->scale->size != n || aq->quantized_dimension != 0)) {
    return kTfLiteOk;
  }
  s->asymmetric = 0;
  for (int i = 1; i < aq->scale->size; ++i) s->asymmetric |= aq->scale->data[i] != aq->scale->data[0];
  /* Padding taps stand for the input zero point, which is per batch when asymmetric. */
  const int64_t elements = el_num_elements(input);
  if ((s->asymmetric && g->batches != 1) || elements >= INT32_MAX) return kTfLiteOk;
  s->channel_scales = aq->scale->data;
  s->per_channel_scales = aq->scale->size > 1;
  s->qk = el_qgemm_kernels_for(el_context_isa(ctx));
  s->quant = el_quant_kernels_for(el_context_isa(ctx));
  const el_qgemm_kernels* qk = s->qk;
  s->is_unsigned = 0;
  s->kp = el_qgemm_kp(qk, g->kdim);
  s->nblocks = (n + EL_QGEMM_NR - 1) / EL_QGEMM_NR;
  const int padded = s->nblocks * EL_QGEMM_NR;
  EL_ENSURE_OK(ctx, channel_arrays(ctx, s, padded));
  memset(s->bias, 0, (size_t)padded * sizeof(int32_t));
  memset(s->fbias, 0, (size_t)padded * sizeof(float));
  s->has_bias = bias != NULL;
  for (int c = 0; c < n; ++c) s->fbias[c] = bias ? bias->data.f[c] : 0.0f;
  s->block_bytes = el_qgemm_block_bytes(qk->format, s->kp);
  EL_ENSURE_OK(ctx, packed_buffer(ctx, s, s->block_bytes * (size_t)s->nblocks));
  el_qgemm_pack(qk->format, filter->data.raw_const, 0, 0, n, g->kdim, s->kp, s->packed, s->bias);
  el_activation_range_f32(params->activation, &s->act_lo, &s->act_hi);
  s->qinput_bytes = ((size_t)elements + 63) & ~(size_t)63;
  /* The quantized input, per batch its scale and zero point, per channel the zero point term. */
  const size_t per_batch = (size_t)g->batches * (sizeof(float) + sizeof(int32_t));
  EL_ENSURE_OK(ctx, el_opt_request_scratch(
                        ctx, s->qinput_bytes + per_batch + (size_t)n * sizeof(int32_t), 1,
                        &s->qinput));
  const size_t elem = qk->format == EL_QFORMAT_QUAD ? 1 : 2;
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, (size_t)qk->mr * (size_t)s->kp * elem, s->threads,
                                           &s->scratch));
  s->hy_row = el_hconv_row_for(el_context_isa(ctx));
  s->hy_epilogue.cs = s->asymmetric ? s->channel_scales : NULL;
  s->hy_epilogue.per_channel = s->per_channel_scales;
  s->hy_epilogue.bias = s->has_bias ? s->fbias : NULL;
  s->hy_epilogue.lo = s->act_lo;
  s->hy_epilogue.hi = s->act_hi;
  s->hy_image = qk->format == EL_QFORMAT_QUAD && g->dw == 1;
  if (s->hy_image) {
    s->hy_bytes = (size_t)el_hconv_image_geom(g, &s->hy_geom);
    /* A pointwise convolution's last tile reads up to mr rows past the image. */
    EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, s->hy_bytes + (size_t)qk->mr * (size_t)s->kp,
                                             1, &s->hy_scratch));
  }
  s->path = PATH_HYBRID;
  return kTfLiteOk;
}

static TfLiteStatus opt_conv_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_ref_conv_2d.prepare(ctx, node));
  el_opt_conv* s = (el_opt_conv*)node->user_data;
  s->path = PATH_REFERENCE;
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  const TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (s->ref.groups != 1 || !el_is_constant_or_persistent(filter) ||
      (bias != NULL && !el_is_constant_or_persistent(bias)) || el_num_elements(output) == 0 ||
      el_num_elements(filter) == 0 || el_context_small_scratch(ctx)) {
    return kTfLiteOk;
  }
  /* A PAD before this VALID convolution becomes its geometry's leading rows and columns
   * (hybrid excluded: its per-batch input quantization would see the padding). */
  el_pad_fold fold;
  const int folded =
      input->type == filter->type &&
      el_pad_fold_find(ctx, node, params->dilation_height_factor * (filter->dims->data[1] - 1),
                       params->dilation_width_factor * (filter->dims->data[2] - 1), &fold);
  s->input = folded ? fold.src : node->inputs->data[0];
  el_conv_geom_init(&s->g, &ctx->tensors[s->input], filter, output, params->stride_height,
                    params->stride_width, params->dilation_height_factor,
                    params->dilation_width_factor, folded ? fold.top : s->ref.pad_h,
                    folded ? fold.left : s->ref.pad_w);
  s->threads = el_cpu_threads(el_context_backend(ctx));
  const TfLiteType t = input->type;
  TfLiteStatus st = kTfLiteOk;
  if ((t == kTfLiteInt8 && filter->type == kTfLiteInt8 && output->type == kTfLiteInt8) ||
      (t == kTfLiteUInt8 && filter->type == kTfLiteUInt8 && output->type == kTfLiteUInt8)) {
    if (bias != NULL && bias->type != kTfLiteInt32) return kTfLiteOk;
    /* No bound on the sums is needed: every integer step here (packing folds, vector adds,
     * dot products) is arithmetic modulo 2^32, as the reference kernel's wrapping sums are, so
     * the accumulators equal the reference's bit for bit even when they wrap. */
    st = prepare_q8(ctx, node, s, input, filter, bias, output);
  } else if (t == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    st = prepare_f32(ctx, node, s, filter, bias);
  } else if (!folded && el_conv16_supported(input, filter, bias, output)) {
    st = el_conv16_prepare(ctx, &s->g, input, filter, bias, output, params->activation, &s->c16);
    if (st == kTfLiteOk) s->path = PATH_I16;
  }
  if (folded) {
    if (st == kTfLiteOk && s->path != PATH_REFERENCE) el_pad_fold_accept(ctx, node, &fold);
    return st;
  }
  if (st != kTfLiteOk || s->path != PATH_REFERENCE) return st;
  if (t == kTfLiteFloat32 && filter->type == kTfLiteInt8 && output->type == kTfLiteFloat32 &&
      (bias == NULL || bias->type == kTfLiteFloat32)) {
    return prepare_hybrid(ctx, node, s, input, filter, bias);
  }
  return kTfLiteOk;
}

/* ---- invoke ---------------------------------------------------------------------------------- */

typedef struct conv_job {
  const el_opt_conv* s;
  const void* in;
  void* out;
  uint8_t* scratch;
  int64_t tiles;
  int mr;
  int tile_tasks; /* tasks along the rows; the rest split the channel chunks */
  int chunk_tasks;
  int chunks;     /* chunks of up to 64 channels */
  const uint8_t* edges; /* row taps: the gathered edge runs */
  /* hybrid path */
  const float* batch_scales;
  const int32_t* batch_zero_points;
  const int32_t* corr; /* per channel: the zero point's term of the sums (hconv_epilogue.h) */
} conv_job;

/* Task t covers a contiguous range of row tiles and of channel chunks. */
static void task_ranges(const conv_job* j, int task, int64_t* t0, int64_t* t1, int* c0, int* c1) {
  const int tm = task / j->chunk_tasks, tn = task % j->chunk_tasks;
  *t0 = j->tiles * tm / j->tile_tasks;
  *t1 = j->tiles * (tm + 1) / j->tile_tasks;
  *c0 = j->chunks * tn / j->chunk_tasks;
  *c1 = j->chunks * (tn + 1) / j->chunk_tasks;
}

static void q8_task(void* arg, int task, int thread) {
  const conv_job* j = (const conv_job*)arg;
  const el_opt_conv* s = j->s;
  const el_qgemm_kernels* qk = s->qk;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  const size_t elem = qk->format == EL_QFORMAT_QUAD ? 1 : 2;
  const size_t row_bytes = (size_t)s->kp * elem;
  uint8_t* a = j->scratch + s->scratch.slice * (size_t)thread;
  int32_t acc[EL_QGEMM_MAX_MR * 64];
  int64_t t0, t1;
  int c0, c1;
  task_ranges(j, task, &t0, &t1, &c0, &c1);
  for (int64_t tile = t0; tile < t1; ++tile) {
    const int64_t m0 = tile * j->mr;
    const int rows = (int)(g->m - m0 < j->mr ? g->m - m0 : j->mr);
    if (qk->format == EL_QFORMAT_QUAD) {
      el_conv_pack_quad(g, (const uint8_t*)j->in, m0, rows, j->mr, s->kp, qk->a_xor, s->pad_byte, a);
    } else {
      el_conv_pack_pair16(g, j->in, s->is_unsigned, s->in_off, m0, rows, j->mr, s->kp,
                          (int16_t*)a);
    }
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * 64;
      const int nb = (n - c + EL_QGEMM_NR - 1) / EL_QGEMM_NR < EL_QGEMM_MAX_NB
                         ? (n - c + EL_QGEMM_NR - 1) / EL_QGEMM_NR
                         : EL_QGEMM_MAX_NB;
      qk->gemm(s->kp, a, row_bytes, (const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes,
               s->block_bytes, nb, acc);
      const int count = n - c < 64 ? n - c : 64;
      qk->requant(acc, rows, count, &s->rq, c, (int8_t*)j->out + m0 * n + c, n);
    }
  }
}

/* The reference hybrid kernel's arithmetic on rows of int32 sums of (q - zero point) * w. */
static void hybrid_task(void* arg, int task, int thread) {
  const conv_job* j = (const conv_job*)arg;
  const el_opt_conv* s = j->s;
  const el_qgemm_kernels* qk = s->qk;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  const size_t elem = qk->format == EL_QFORMAT_QUAD ? 1 : 2;
  const size_t row_bytes = (size_t)s->kp * elem;
  const int64_t hw = (int64_t)g->out_h * g->out_w;
  const int32_t zp = j->batch_zero_points[0];
  const float* cs = s->hy_epilogue.cs;
  const int cs_step = s->hy_epilogue.per_channel;
  const float* bias = s->hy_epilogue.bias;
  uint8_t* a = j->scratch + s->scratch.slice * (size_t)thread;
  float* out = (float*)j->out;
  int32_t acc[EL_QGEMM_MAX_MR * 64];
  int64_t t0, t1;
  int c0, c1;
  task_ranges(j, task, &t0, &t1, &c0, &c1);
  const int in_place = g->pointwise && s->kp == g->in_c;
  el_fconv_cursor cur = {0, 0, 0, 0, 0, 0, 0};
  if (s->hy_image && !in_place) cur = el_fconv_cursor_at(&s->hy_geom, t0 * j->mr);
  for (int64_t tile = t0; tile < t1; ++tile) {
    const int64_t m0 = tile * j->mr;
    const int rows = (int)(g->m - m0 < j->mr ? g->m - m0 : j->mr);
    if (s->hy_image && in_place) {
      a = (uint8_t*)j->in + m0 * g->in_c;
    } else if (s->hy_image) {
      el_hconv_tile_rows(&s->hy_geom, (const uint8_t*)j->in, &cur, rows, j->mr, s->kp, a);
    } else if (qk->format == EL_QFORMAT_QUAD) {
      el_conv_pack_quad(g, (const uint8_t*)j->in, m0, rows, j->mr, s->kp, qk->a_xor,
                        (uint8_t)((uint8_t)zp ^ qk->a_xor), a);
    } else {
      el_conv_pack_pair16(g, j->in, 0, -zp, m0, rows, j->mr, s->kp, (int16_t*)a);
    }
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * 64;
      const int nb = (n - c + EL_QGEMM_NR - 1) / EL_QGEMM_NR < EL_QGEMM_MAX_NB
                         ? (n - c + EL_QGEMM_NR - 1) / EL_QGEMM_NR
                         : EL_QGEMM_MAX_NB;
      qk->gemm(s->kp, a, row_bytes, (const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes,
               s->block_bytes, nb, acc);
      const int count = n - c < 64 ? n - c : 64;
      for (int r = 0; r < rows; ++r) {
        s->hy_row(&s->hy_epilogue, acc + r * 64, j->corr + c, cs ? cs + (cs_step ? c : 0) : NULL,
                  bias ? bias + c : NULL, j->batch_scales[(m0 + r) / hw], count,
                  out + (m0 + r) * n + c);
      }
    }
  }
}

/* Quantizes each batch of the input as the reference hybrid kernel does (symmetric scales
 * already multiplied by the one weight scale). */
static void hybrid_quantize(const el_opt_conv* s, const float* in, int8_t* q, float* scales,
                            int32_t* zero_points) {
  const el_conv_geom* g = &s->g;
  const int image = g->in_h * g->in_w * g->in_c;
  for (int b = 0; b < g->batches; ++b) {
    const float* src = in + (int64_t)b * image;
    int8_t* dst = q + (int64_t)b * image;
    if (s->asymmetric) {
      el_opt_hybrid_quantize_asymmetric(src, image, dst, &scales[b], &zero_points[b]);
    } else {
      el_opt_hybrid_quantize_symmetric_with(s->quant, src, image, dst, &scales[b]);
      scales[b] *= s->channel_scales[0];
      zero_points[b] = 0;
    }
  }
}

/* Input element offsets of the taps of output pixels m0 .. m0+mr-1, tap-major
 * (off[t * mr + r]); rows past the last pixel repeat pixel m0, taps outside the image are -1. */
static void tap_offsets(const el_conv_geom* g, int64_t m0, int rows, int mr, int32_t* off) {
  const int64_t hw = (int64_t)g->out_h * g->out_w;
  for (int r = 0; r < mr; ++r) {
    const int64_t m = m0 + (r < rows ? r : 0);
    const int64_t b = m / hw;
    const int rem = (int)(m % hw);
    const int iy0 = (rem / g->out_w) * g->sh - g->pad_h;
    const int ix0 = (rem % g->out_w) * g->sw - g->pad_w;
    for (int fy = 0, t = 0; fy < g->kh; ++fy) {
      const int iy = iy0 + fy * g->dh;
      const int row_ok = iy >= 0 && iy < g->in_h;
      const int64_t row = ((b * g->in_h + (row_ok ? iy : 0)) * g->in_w) * g->in_c;
      for (int fx = 0; fx < g->kw; ++fx, ++t) {
        const int ix = ix0 + fx * g->dw;
        off[t * mr + r] = (row_ok && ix >= 0 && ix < g->in_w) ? (int32_t)(row + (int64_t)ix * g->in_c) : -1;
      }
    }
  }
}

/* The tap offsets of the tile starting at m0 (see tap_offsets; row taps: el_conv_row_taps). */
static const int32_t* tile_offsets(const el_opt_conv* s, int64_t tile, int64_t m0, int rows, int mr,
                                   int32_t* off_scratch) {
  const el_conv_geom* g = &s->g;
  if (s->use_tap_table) return s->tap_offsets + tile * s->taps * mr;
  if (g->pointwise) {
    for (int r = 0; r < mr; ++r) off_scratch[r] = (int32_t)((m0 + (r < rows ? r : 0)) * g->in_c);
  } else {
    tap_offsets(g, m0, rows, mr, off_scratch);
  }
  return off_scratch;
}

static void q8_indirect_task(void* arg, int task, int thread) {
  const conv_job* j = (const conv_job*)arg;
  const el_opt_conv* s = j->s;
  const el_qgemm_kernels* qk = s->qk;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  int32_t* off_scratch = (int32_t*)(void*)(j->scratch + s->scratch.slice * (size_t)thread);
  const int8_t* aux = s->row_taps ? (const int8_t*)j->edges : s->zero_row;
  int64_t t0, t1;
  int c0, c1;
  task_ranges(j, task, &t0, &t1, &c0, &c1);
  for (int64_t tile = t0; tile < t1; ++tile) {
    const int64_t m0 = tile * j->mr;
    const int rows = (int)(g->m - m0 < j->mr ? g->m - m0 : j->mr);
    const int32_t* off = tile_offsets(s, tile, m0, rows, j->mr, off_scratch);
    /* All channels of the task in one call: the tap offsets are resolved once per pass. */
    const int c = c0 * 64;
    const int count = (c1 * 64 < n ? c1 * 64 : n) - c;
    if (count > 0) {
      qk->igemm(s->taps, s->tap_len, off, (const int8_t*)j->in, aux,
                (const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes, s->block_bytes,
                &s->rq, c, rows, (int8_t*)j->out + m0 * n + c, n, count);
    }
  }
}

/* 1x1 convolutions read their rows in place. The m rows are cut into j->tiles tiles of nearly
 * equal size (at most mr rows each: 36 rows as 6 x 6, not 5 x 7 + 1, since the kernel issues
 * FMAs for a tile's rows only). A group of tiles runs one 32-channel panel of weights after the
 * other, so a panel stays in L1 while the group's rows (L2) stream past it, instead of every
 * tile streaming all the weights from L2. Each output is still summed in k order from its bias:
 * the bits do not depend on the tiling or the order of tiles and panels. */
static void pointwise_f32(const conv_job* j, int64_t t0, int64_t t1, int c0, int c1) {
  const el_opt_conv* s = j->s;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  const float* in = (const float*)j->in;
  float* out = (float*)j->out;
  const int c_end = c1 * EL_FGEMM_CHUNK < n ? c1 * EL_FGEMM_CHUNK : n;
  if (s->narrow) {
    /* One block of channels: the task's rows in runs of up to EL_FGEMM_NARROW_MR. */
    static const ptrdiff_t no_step[EL_FGEMM_NARROW_MR] = {0};
    const float* narrow[EL_FGEMM_NARROW_MR];
    const int64_t first = g->m * t0 / j->tiles, last = g->m * t1 / j->tiles;
    if (s->fk->gemm_narrow_rows != NULL) {
      s->fk->gemm_narrow_rows(g->kdim, in + first * g->in_c, last - first, (const float*)s->packed, n,
                              s->fbias, s->act_lo, s->act_hi, out + first * n, n);
      return;
    }
    for (int64_t m0 = first; m0 < last; m0 += EL_FGEMM_NARROW_MR) {
      const int rows = (int)(last - m0 < EL_FGEMM_NARROW_MR ? last - m0 : EL_FGEMM_NARROW_MR);
      for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) narrow[r] = in + (m0 + (r < rows ? r : 0)) * g->in_c;
      s->fk->igemm_narrow(1, g->kdim, narrow, no_step, rows, (const float*)s->packed, n, s->fbias,
                          s->act_lo, s->act_hi, out + m0 * n, n);
    }
    return;
  }
  const float* rows_ptr[EL_FGEMM_MAX_MR];
  for (int64_t g0 = t0; g0 < t1; g0 += POINTWISE_GROUP) {
    const int64_t g1 = g0 + POINTWISE_GROUP < t1 ? g0 + POINTWISE_GROUP : t1;
    for (int c = c0 * EL_FGEMM_CHUNK; c < c_end; c += 2 * EL_FGEMM_NR) {
      const int count = c_end - c < 2 * EL_FGEMM_NR ? c_end - c : 2 * EL_FGEMM_NR;
      const float* w = (const float*)((const uint8_t*)s->packed +
                                      (size_t)(c / EL_FGEMM_NR) * s->block_bytes);
      for (int64_t tile = g0; tile < g1; ++tile) {
        const int64_t m0 = g->m * tile / j->tiles;
        const int rows = (int)(g->m * (tile + 1) / j->tiles - m0);
        for (int r = 0; r < j->mr; ++r) rows_ptr[r] = in + (m0 + (r < rows ? r : 0)) * g->in_c;
        s->fk->gemm(g->kdim, rows_ptr, rows, w, s->block_bytes, count, s->fbias + c, s->act_lo,
                    s->act_hi, out + m0 * n + c, n);
      }
    }
  }
}

static void f32_task(void* arg, int task, int thread) {
  const conv_job* j = (const conv_job*)arg;
  const el_opt_conv* s = j->s;
  const el_fgemm_kernels* fk = s->fk;
  const el_conv_geom* g = &s->g;
  const int n = g->out_c;
  float* a = (float*)(j->scratch + s->scratch.slice * (size_t)thread);
  const float* in = (const float*)j->in;
  float* out = (float*)j->out;
  const float* rows_ptr[EL_FGEMM_MAX_MR];
  ptrdiff_t steps[EL_FGEMM_MAX_MR];
  int64_t t0, t1;
  int c0, c1;
  task_ranges(j, task, &t0, &t1, &c0, &c1);
  if (g->pointwise) {
    pointwise_f32(j, t0, t1, c0, c1);
    return;
  }
  const el_conv_geom* tg = s->fpadded != NULL ? &s->fpadded_geom : g;
  if (s->f32_taps && s->narrow) {
    /* One block of channels: the task's pixels in tiles of up to EL_FGEMM_NARROW_MR. */
    const float* narrow[EL_FGEMM_NARROW_MR];
    ptrdiff_t narrow_steps[EL_FGEMM_NARROW_MR];
    const int64_t last = t1 * j->mr < g->m ? t1 * j->mr : g->m;
    el_fconv_cursor cur = el_fconv_cursor_at(tg, t0 * j->mr);
    for (int64_t m0 = t0 * j->mr; m0 < last; m0 += EL_FGEMM_NARROW_MR) {
      const int rows = (int)(last - m0 < EL_FGEMM_NARROW_MR ? last - m0 : EL_FGEMM_NARROW_MR);
      el_fconv_tile_rows(tg, in, &cur, rows, EL_FGEMM_NARROW_MR, a, narrow, narrow_steps);
      fk->igemm_narrow(g->kh, g->kw * g->in_c, narrow, narrow_steps, rows, (const float*)s->packed, n,
                       s->fbias, s->act_lo, s->act_hi, out + m0 * n, n);
    }
    return;
  }
  el_fconv_cursor cur = el_fconv_cursor_at(tg, t0 * j->mr);
  for (int64_t tile = t0; tile < t1; ++tile) {
    const int64_t m0 = tile * j->mr;
    const int rows = (int)(g->m - m0 < j->mr ? g->m - m0 : j->mr);
    if (s->f32_taps) {
      el_fconv_tile_rows(tg, in, &cur, rows, j->mr, a, rows_ptr, steps);
    } else {
      el_conv_pack_f32(g, in, m0, rows, j->mr, a);
      for (int r = 0; r < j->mr; ++r) rows_ptr[r] = a + (size_t)r * (size_t)g->kdim;
    }
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * EL_FGEMM_CHUNK;
      const int count = n - c < EL_FGEMM_CHUNK ? n - c : EL_FGEMM_CHUNK;
      const float* w = (const float*)((const uint8_t*)s->packed +
                                      (size_t)(c / EL_FGEMM_NR) * s->block_bytes);
      if (s->f32_taps) {
        fk->igemm(g->kh, g->kw * g->in_c, rows_ptr, steps, rows, w, s->block_bytes, count,
                  s->fbias + c, s->act_lo, s->act_hi, out + m0 * n + c, n);
      } else {
        fk->gemm(g->kdim, rows_ptr, rows, w, s->block_bytes, count, s->fbias + c, s->act_lo,
                 s->act_hi, out + m0 * n + c, n);
      }
    }
  }
}

/* PATH_I16: ranges of output pixels, windows read in place. */
static void i16_task(void* arg, int task, int thread) {
  const conv_job* j = (const conv_job*)arg;
  const el_opt_conv* s = j->s;
  const int64_t m0 = s->g.m * task / j->tile_tasks, m1 = s->g.m * (task + 1) / j->tile_tasks;
  (void)thread;
  el_conv16_pixels(&s->g, &s->c16, (const int16_t*)j->in, m0, m1, (int16_t*)j->out);
}

static TfLiteStatus invoke_i16(TfLiteContext* ctx, conv_job* j) {
  const el_opt_conv* s = j->s;
  const el_cpu_backend* b = el_context_backend(ctx);
  const int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  j->tile_tasks = el_opt_task_count(s->g.m > 1 << 20 ? 1 << 20 : (int)s->g.m, threads);
  el_cpu_parallel(b, j->tile_tasks, threads, i16_task, j);
  return kTfLiteOk;
}

/* fconv_planes.h: the planes filled, then tasks of whole output rows. */
static void planes_task(void* arg, int task, int thread) {
  (void)thread;
  const conv_job* j = (const conv_job*)arg;
  const el_conv_geom* g = &j->s->g;
  const int64_t rows = (int64_t)g->batches * g->out_h;
  el_fconv_planes_rows(&j->s->planes, rows * task / j->tile_tasks, rows * (task + 1) / j->tile_tasks,
                       (float*)j->out);
}

static TfLiteStatus invoke_planes(TfLiteContext* ctx, conv_job* j, const float* in) {
  const el_opt_conv* s = j->s;
  const el_cpu_backend* b = el_context_backend(ctx);
  const int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  el_fconv_planes_fill(&s->planes, in);
  const int64_t rows = (int64_t)s->g.batches * s->g.out_h;
  j->tile_tasks = el_opt_task_count(rows > 1 << 20 ? 1 << 20 : (int)rows, threads);
  el_cpu_parallel(b, j->tile_tasks, threads, planes_task, j);
  return kTfLiteOk;
}

static TfLiteStatus opt_conv_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_opt_conv* s = (const el_opt_conv*)node->user_data;
  if (s->path == PATH_REFERENCE) return el_ref_conv_2d.invoke(ctx, node);
  const TfLiteTensor* input = &ctx->tensors[s->input];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  conv_job j;
  j.s = s;
  j.in = input->data.raw_const;
  j.out = output->data.raw;
  EL_ENSURE(ctx, j.in != NULL && j.out != NULL);
  /* The int16 path reads its windows in place: it has no scratch. */
  if (s->path == PATH_I16) return invoke_i16(ctx, &j);
  j.scratch = (uint8_t*)el_opt_scratch_slice(ctx, &s->scratch, 0);
  EL_ENSURE(ctx, j.scratch != NULL);
  if (s->path == PATH_HYBRID) {
    uint8_t* q = (uint8_t*)el_opt_scratch_slice(ctx, &s->qinput, 0);
    EL_ENSURE(ctx, q != NULL);
    float* scales = (float*)(void*)(q + s->qinput_bytes);
    int32_t* zero_points = (int32_t*)(void*)(scales + s->g.batches);
    hybrid_quantize(s, input->data.f, (int8_t*)q, scales, zero_points);
    j.in = q;
    if (s->hy_image) {
      uint8_t* image = (uint8_t*)el_opt_scratch_slice(ctx, &s->hy_scratch, 0);
      EL_ENSURE(ctx, image != NULL);
      /* Symmetric inputs have zero points 0; asymmetric ones one batch. */
      el_hconv_fill_image(&s->g, &s->hy_geom, (const int8_t*)q, s->qk->a_xor,
                          (uint8_t)((uint8_t)zero_points[0] ^ s->qk->a_xor), image);
      j.in = image;
    }
    j.batch_scales = scales;
    j.batch_zero_points = zero_points;
    /* Asymmetric inputs have one batch (prepare), so one zero point serves every tap. QUAD
     * sums the stored bytes (q ^ a_xor); PAIR16 sums q - zp itself. */
    const int32_t fold =
        s->qk->format == EL_QFORMAT_QUAD ? -zero_points[0] - (s->qk->a_xor ? 128 : 0) : 0;
    int32_t* corr = zero_points + s->g.batches;
    for (int c = 0; c < s->g.out_c; ++c) corr[c] = el_wrap_fold(0, fold, s->bias[c]);
    j.corr = corr;
  }
  if (s->path == PATH_F32 && s->f32_planes) return invoke_planes(ctx, &j, input->data.f);
  if (s->path == PATH_F32 && s->fpadded != NULL) {
    el_fconv_fill_padded(&s->g, &s->fpadded_geom, input->data.f, s->fpadded);
    j.in = s->fpadded;
  }
  j.edges = NULL;
  if (s->path == PATH_Q8_INDIRECT && s->row_taps) {
    uint8_t* edges = (uint8_t*)el_opt_scratch_slice(ctx, &s->edges, 0);
    EL_ENSURE(ctx, edges != NULL);
    const el_conv_geom* tg = &s->g;
    if (s->image != NULL) {
      /* The kernel flips the bytes it reads itself: the image holds them as stored. */
      el_hconv_fill_image(&s->g, &s->image_geom, (const int8_t*)j.in, 0,
                          (uint8_t)input->params.zero_point, (uint8_t*)s->image);
      j.in = s->image;
      tg = &s->image_geom;
    }
    /* The zero row, then the edge runs. */
    memset(edges, (uint8_t)input->params.zero_point, (size_t)s->tap_len);
    el_conv_gather_edges(tg, (const uint8_t*)j.in, s->edge_src, s->edge_count, s->tap_len,
                         (uint8_t)input->params.zero_point, edges + s->tap_len);
    j.edges = edges;
  }
  j.mr = s->path == PATH_F32            ? s->fk->mr
         : s->path == PATH_Q8_INDIRECT ? s->qk->igemm_mr
                                       : s->qk->mr;
  j.tiles = (s->g.m + j.mr - 1) / j.mr;
  j.chunks = s->path == PATH_F32 ? (s->g.out_c + EL_FGEMM_CHUNK - 1) / EL_FGEMM_CHUNK
                                 : (s->g.out_c + 63) / 64;
  const el_cpu_backend* b = el_context_backend(ctx);
  const int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  if (threads <= 1) {
    j.tile_tasks = 1;
    j.chunk_tasks = 1;
  } else if (j.tiles >= 2 * threads) {
    j.tile_tasks = el_opt_task_count(j.tiles > 1 << 20 ? 1 << 20 : (int)j.tiles, threads);
    j.chunk_tasks = 1;
  } else {
    j.tile_tasks = (int)j.tiles;
    j.chunk_tasks = j.chunks < threads ? j.chunks : threads;
  }
  el_task_fn fn = s->path == PATH_Q8        ? q8_task
                  : s->path == PATH_F32     ? f32_task
                  : s->path == PATH_HYBRID  ? hybrid_task
                                            : q8_indirect_task;
  el_cpu_parallel(b, j.tile_tasks * j.chunk_tasks, threads, fn, &j);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_conv_2d =
    EL_REGISTRATION(opt_conv_init, el_kernel_free, opt_conv_prepare, opt_conv_invoke,
                    EL_OP_CONV_2D);
