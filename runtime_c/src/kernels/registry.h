/* The builtin op resolver's table: which TfLiteRegistration runs a builtin op at a version. */
#ifndef EDGELITE_KERNELS_REGISTRY_H_
#define EDGELITE_KERNELS_REGISTRY_H_

#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum el_kernel_tier {
  EL_TIER_OPTIMIZED = 0,
  EL_TIER_REFERENCE = 1
} el_kernel_tier;

/* The registration for `builtin_code` at `version`, or NULL when edgelite has no kernel for
 * that op at that version. The returned registration is immutable and lives forever. */
const TfLiteRegistration* el_kernels_lookup(int32_t builtin_code, int version, el_kernel_tier tier);

/* The highest version of `builtin_code` edgelite accepts, 0 when the op is unknown. */
int el_kernels_max_version(int32_t builtin_code);

/* The built-in kernel of the custom op `name` at `version` (TFLite's builtin resolver also
 * carries TFLite_Detection_PostProcess; TFLM's Signal* ops are built in too), or NULL. */
const TfLiteRegistration* el_kernels_lookup_custom(const char* name, int version, el_kernel_tier tier);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_REGISTRY_H_ */
