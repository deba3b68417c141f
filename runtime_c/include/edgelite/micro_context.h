/* Part of edgelite/common.h, included there in place of the full TfLiteContext when
 * EDGELITE_MICRO_TENSOR is defined. */
#ifndef EDGELITE_MICRO_CONTEXT_H_
#define EDGELITE_MICRO_CONTEXT_H_

/* The micro interpreter's context: only the fields and callbacks the kernels of the freestanding
 * build use. The interpreter builds one for each kernel call, with `tensors` the call's window of
 * the node's tensors (edgelite/edgelite_micro.h). AcquireSubgraphContext stays NULL: it is how
 * control-flow kernels would reach another subgraph, which the micro interpreter does not run. */
typedef struct TfLiteContext {
  size_t tensors_size;
  TfLiteTensor* tensors;
  void* impl_;
  TfLiteStatus (*ResizeTensor)(struct TfLiteContext*, TfLiteTensor* tensor, TfLiteIntArray* new_size);
  void (*ReportError)(struct TfLiteContext*, const char* format, ...);
  void* (*AllocatePersistentBuffer)(struct TfLiteContext* ctx, size_t bytes);
  TfLiteStatus (*RequestScratchBufferInArena)(struct TfLiteContext* ctx, size_t bytes, int* buffer_idx);
  void* (*GetScratchBuffer)(struct TfLiteContext* ctx, int buffer_idx);
  TfLiteStatus (*AcquireSubgraphContext)(struct TfLiteContext* context, int subgraph_index,
                                         struct TfLiteContext** acquired_context);
} TfLiteContext;
#define EDGELITE_MICRO_CONTEXT_LAYOUT 1

#endif /* EDGELITE_MICRO_CONTEXT_H_ */
