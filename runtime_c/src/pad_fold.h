/* PAD folded into the convolution that reads it.
 *
 * A PAD (or PADV2) that adds rows and columns of the input's zero point around an image, read
 * only by a VALID CONV_2D or DEPTHWISE_CONV_2D, computes nothing the convolution cannot do on its
 * own: the optimized kernels already treat taps outside the image as the input zero point. Such
 * a convolution reads the PAD's input in place of the padded tensor, with the padding as its
 * geometry's leading rows and columns; the PAD then never runs, and the padded tensor gets no
 * arena memory (its value is not kept, as any intermediate's need not be; with
 * experimental_preserve_all_tensors nothing is folded).
 *
 * The convolution's prepare asks el_pad_fold_find() while allocate_tensors prepares the nodes,
 * and once it has settled on a path that honours the fold, el_pad_fold_accept(). */
#ifndef EDGELITE_PAD_FOLD_H_
#define EDGELITE_PAD_FOLD_H_

#include "edgelite/common.h"

typedef struct el_pad_fold {
  int src;       /* the tensor the PAD pads; the convolution reads it instead of its input 0 */
  int top, left; /* rows and columns the PAD adds before the image */
} el_pad_fold;

/* 1 when input 0 of the convolution `node` comes from a PAD it can take on: a constant 4-D
 * padding of height and width only, at most max_h rows and max_w columns on each side, with the
 * input zero point (0.0 for float32), from an int8, uint8 or float32 tensor of the same
 * quantization, read by no other node, not an input or output of the subgraph. */
int el_pad_fold_find(const TfLiteContext* ctx, const TfLiteNode* node, int max_h, int max_w,
                     el_pad_fold* fold);

/* The convolution reads fold->src from now on and the PAD is skipped, until the next
 * allocate_tensors. */
void el_pad_fold_accept(TfLiteContext* ctx, TfLiteNode* node, const el_pad_fold* fold);

#endif /* EDGELITE_PAD_FOLD_H_ */
