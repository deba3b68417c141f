/* Names of TFLite builtin operators. */
#ifndef EDGELITE_OP_NAMES_H_
#define EDGELITE_OP_NAMES_H_

#include <stdint.h>

/* One past the last BuiltinOperator in schema.fbs (STABLEHLO_CASE = 209). */
enum { EL_BUILTIN_COUNT = 210, EL_BUILTIN_RESHAPE = 22, EL_BUILTIN_CUSTOM = 32, EL_BUILTIN_DELEGATE = 51 };

/* "CONV_2D" for 3; NULL for a code outside the schema (or, in a build with an op selection,
 * outside the selection). */
const char* el_builtin_name(int32_t code);

#endif /* EDGELITE_OP_NAMES_H_ */
