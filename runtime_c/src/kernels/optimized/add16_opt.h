/* int16 ADD and SUB with general scales on the optimized tier: the reference arithmetic
 * (elementwise_quant.h's el_add_sub_params) per element, written branch-free so that compilers
 * vectorize it, and built once per x86 ISA level. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_ADD16_OPT_H_
#define EDGELITE_KERNELS_OPTIMIZED_ADD16_OPT_H_

#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/elementwise_quant.h"

/* out[i] = op(a[i * a_step], b[i * b_step]) for i < n (a step of 0 repeats one element). */
typedef void (*el_add16_fn)(const el_add_sub_params* p, const int16_t* a, int a_step, const int16_t* b,
                            int b_step, int16_t* out, int64_t n);

/* Whether the loop takes these parameters (the reference prepares nothing else for ADD/SUB). */
int el_add16_supported(const el_add_sub_params* p);
el_add16_fn el_add16_for(el_isa isa);

#endif /* EDGELITE_KERNELS_OPTIMIZED_ADD16_OPT_H_ */
