/* The interpreter-wide resource store of resource_variables.c, shared with the hash tables of
 * hashtable.c. */
#ifndef EDGELITE_KERNELS_RESOURCES_H_
#define EDGELITE_KERNELS_RESOURCES_H_

#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The store's slot for hash tables (NULL until set); free_fn releases what it holds when the
 * interpreter goes. NULL when the store cannot be created. */
void** el_resource_tables(TfLiteContext* ctx, void (*free_fn)(void* tables));

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_RESOURCES_H_ */
