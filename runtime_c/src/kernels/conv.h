/* Per-node state of CONV_2D and DEPTHWISE_CONV_2D, shared with the files that add quantized
 * paths to them. Everything here is computed in prepare. */
#ifndef EDGELITE_KERNELS_CONV_H_
#define EDGELITE_KERNELS_CONV_H_

#include "kernels/kernel_util.h"

typedef struct el_conv_data {
  int pad_h, pad_w; /* rows above and columns left of the image (TFLite's padding.height, .width) */
  union {
    int groups;           /* CONV_2D: input channels / filter input channels */
    int depth_multiplier; /* DEPTHWISE_CONV_2D: output channels / input channels */
  };
  void* quant; /* state of a quantized path, owned by that path (see README.md) */
} el_conv_data;

/* Window geometry shared by CONV_2D and DEPTHWISE_CONV_2D. */
typedef struct el_conv_window {
  int stride_h, stride_w;
  int dilation_h, dilation_w;
  TfLitePadding padding;
} el_conv_window;

/* init of both kernels: a zeroed el_conv_data. */
void* el_conv_init(TfLiteContext* ctx, const char* buf, size_t len);

/* A quantized path's prepare: d holds the window and the output is resized when it runs. */
typedef TfLiteStatus (*el_conv_quant_prepare_fn)(TfLiteContext* ctx, TfLiteNode* node, el_conv_data* d);

/* The tail both prepares share: output size and padding from the window, the output resized to
 * NHWC with `out_c` channels, then float type checks or the quantized path's prepare. */
TfLiteStatus el_conv_prepare_output(TfLiteContext* ctx, TfLiteNode* node, el_conv_data* d,
                                    const el_conv_window* w, const TfLiteTensor* input,
                                    const TfLiteTensor* filter, const TfLiteTensor* bias,
                                    TfLiteTensor* output, int out_c, const char* op_name,
                                    el_conv_quant_prepare_fn prepare_quant);

#endif /* EDGELITE_KERNELS_CONV_H_ */
