#include "pad_fold.h"

#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "interp.h"
#include "kernels/builtin_codes.h"

static int valid_index(const el_subgraph* sg, int t) { return t >= 0 && (size_t)t < sg->ctx.tensors_size; }

static int in_list(const el_int_list* l, int t) {
  for (int32_t k = 0; k < l->n; ++k) {
    if (l->v[k] == t) return 1;
  }
  return 0;
}

/* The node at an earlier step of this prepare pass that writes t, or NULL. */
static el_node* producer_of(const el_subgraph* sg, int t) {
  const int step = sg->extra[t].first_write;
  if (step < 0 || step >= sg->current_step || step >= sg->plan->size) return NULL;
  el_node* p = sg->nodes[sg->plan->data[step]];
  return p->node.outputs != NULL && p->node.outputs->size == 1 && p->node.outputs->data[0] == t ? p : NULL;
}

/* Whether any node of the plan other than `only` reads t (or `only` reads it elsewhere than as
 * input 0). */
static int read_elsewhere(const el_subgraph* sg, int t, const el_node* only) {
  for (int step = 0; step < sg->plan->size; ++step) {
    const el_node* n = sg->nodes[sg->plan->data[step]];
    const TfLiteIntArray* in = n->node.inputs;
    for (int k = 0; in != NULL && k < in->size; ++k) {
      if (in->data[k] == t && (n != only || k != 0)) return 1;
    }
  }
  return 0;
}

static int64_t int_at(const TfLiteTensor* t, int i) {
  return t->type == kTfLiteInt64 ? ((const int64_t*)t->data.raw_const)[i]
                                 : (int64_t)((const int32_t*)t->data.raw_const)[i];
}

/* The padding amounts [before, after] of the 4 dimensions, if a constant 4x2 integer tensor. */
static int constant_paddings(const el_subgraph* sg, int t, int64_t p[8]) {
  if (!valid_index(sg, t) || !sg->extra[t].is_constant) return 0;
  const TfLiteTensor* pt = &sg->ctx.tensors[t];
  if ((pt->type != kTfLiteInt32 && pt->type != kTfLiteInt64) || pt->data.raw_const == NULL ||
      pt->dims == NULL || pt->dims->size != 2 || pt->dims->data[0] != 4 || pt->dims->data[1] != 2) {
    return 0;
  }
  for (int i = 0; i < 8; ++i) p[i] = int_at(pt, i);
  return 1;
}

/* Whether PADV2's constant value (input 2, optional) is what the convolution assumes outside the
 * image: the zero point, or 0.0 for float32. */
static int pads_with_zero_point(const el_subgraph* sg, const el_node* pad, const TfLiteTensor* x) {
  const TfLiteIntArray* in = pad->node.inputs;
  if (pad->reg.builtin_code != EL_OP_PADV2 || in->size < 3 || in->data[2] < 0) return 1;
  const int t = in->data[2];
  if (!valid_index(sg, t) || !sg->extra[t].is_constant) return 0;
  const TfLiteTensor* v = &sg->ctx.tensors[t];
  if (v->type != x->type || v->data.raw_const == NULL || v->bytes == 0) return 0;
  switch (x->type) {
    case kTfLiteFloat32:
      return *(const float*)v->data.raw_const == 0.0f;
    case kTfLiteInt8:
      return *(const int8_t*)v->data.raw_const == x->params.zero_point;
    case kTfLiteUInt8:
      return *(const uint8_t*)v->data.raw_const == x->params.zero_point;
    default:
      return 0;
  }
}

static int valid_padding(const el_node* conv) {
  if (conv->node.builtin_data == NULL) return 0;
  if (conv->reg.builtin_code == EL_OP_CONV_2D) {
    return ((const TfLiteConvParams*)conv->node.builtin_data)->padding == kTfLitePaddingValid;
  }
  if (conv->reg.builtin_code == EL_OP_DEPTHWISE_CONV_2D) {
    return ((const TfLiteDepthwiseConvParams*)conv->node.builtin_data)->padding == kTfLitePaddingValid;
  }
  return 0;
}

int el_pad_fold_find(const TfLiteContext* ctx, const TfLiteNode* node, int max_h, int max_w,
                     el_pad_fold* fold) {
  const el_subgraph* sg = ctx ? (const el_subgraph*)ctx->impl_ : NULL;
  if (sg == NULL || &sg->ctx != ctx || sg->interp == NULL || sg->interp->preserve_all_tensors ||
      !sg->preparing || sg->invoking || node == NULL || node->inputs == NULL || node->inputs->size < 1) {
    return 0;
  }
  /* Kernels get &el_node.node, its first member. */
  const el_node* conv = (const el_node*)(const void*)node;
  if (conv->delegated || !valid_padding(conv)) return 0;
  const int y = node->inputs->data[0];
  if (!valid_index(sg, y) || sg->extra[y].is_constant || sg->ctx.tensors[y].allocation_type != kTfLiteArenaRw ||
      sg->ctx.tensors[y].is_variable || in_list(&sg->desc->inputs, y) || in_list(&sg->desc->outputs, y)) {
    return 0;
  }
  const el_node* pad = producer_of(sg, y);
  if (pad == NULL || pad->delegated || pad->node.delegate != NULL ||
      (pad->reg.builtin_code != EL_OP_PAD && pad->reg.builtin_code != EL_OP_PADV2) ||
      pad->node.inputs == NULL || pad->node.inputs->size < 2) {
    return 0;
  }
  const int x = pad->node.inputs->data[0];
  if (!valid_index(sg, x) || x == y) return 0;
  const TfLiteTensor* xt = &sg->ctx.tensors[x];
  const TfLiteTensor* yt = &sg->ctx.tensors[y];
  if (xt->type != yt->type || (xt->type != kTfLiteFloat32 && xt->type != kTfLiteInt8 && xt->type != kTfLiteUInt8) ||
      xt->allocation_type == kTfLiteDynamic || xt->dims == NULL || yt->dims == NULL || xt->dims->size != 4 ||
      yt->dims->size != 4) {
    return 0;
  }
  if (xt->type != kTfLiteFloat32 &&
      (xt->params.scale != yt->params.scale || xt->params.zero_point != yt->params.zero_point)) {
    return 0;
  }
  int64_t p[8];
  if (!constant_paddings(sg, pad->node.inputs->data[1], p) || p[0] != 0 || p[1] != 0 || p[6] != 0 || p[7] != 0) {
    return 0;
  }
  if (p[2] < 0 || p[3] < 0 || p[4] < 0 || p[5] < 0 || p[2] > max_h || p[3] > max_h || p[4] > max_w || p[5] > max_w) {
    return 0;
  }
  for (int d = 0; d < 4; ++d) {
    const int64_t before = d == 1 ? p[2] : d == 2 ? p[4] : 0;
    const int64_t after = d == 1 ? p[3] : d == 2 ? p[5] : 0;
    if ((int64_t)xt->dims->data[d] + before + after != yt->dims->data[d]) return 0;
  }
  if (!pads_with_zero_point(sg, pad, xt) || read_elsewhere(sg, y, conv)) return 0;
  fold->src = x;
  fold->top = (int)p[2];
  fold->left = (int)p[4];
  return 1;
}

void el_pad_fold_accept(TfLiteContext* ctx, TfLiteNode* node, const el_pad_fold* fold) {
  el_subgraph* sg = (el_subgraph*)ctx->impl_;
  el_node* conv = (el_node*)(void*)node;
  el_node* pad = producer_of(sg, node->inputs->data[0]);
  if (pad == NULL) return;
  pad->pad_folded = 1;
  conv->pad_source = fold->src + 1;
}
