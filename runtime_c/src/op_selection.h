/* Build-time op selection (freestanding builds, -DEDGELITE_OP_SELECTION=ops.h): the header
 * `edgelite ops MODEL --header` writes defines EL_KEEP_<EL_OP_code> as EL_KEPT_PROBE for each op
 * the models use. EL_IS_KEPT(EL_OP_CONV_2D) is then the constant 1 or 0 the preprocessor and
 * compiler fold, so the op table, option parsers and names of other ops are not linked. Without a
 * selection every op is kept. */
#ifndef EDGELITE_OP_SELECTION_H_
#define EDGELITE_OP_SELECTION_H_

#ifdef EDGELITE_OP_SELECTION
#include EDGELITE_OP_SELECTION
#define EL_KEPT_PROBE ~, 1
#define EL_SECOND_(a, b, ...) b
#define EL_IS_KEPT_(...) EL_SECOND_(__VA_ARGS__, 0, ~)
#define EL_IS_KEPT(code) EL_IS_KEPT_(EL_KEEP_##code)
#else
#define EL_IS_KEPT(code) 1
#endif

#define EL_SEL_CAT_(a, b) a##b
#define EL_SEL_CAT(a, b) EL_SEL_CAT_(a, b)
#define EL_SEL_IF_1(...) __VA_ARGS__
#define EL_SEL_IF_0(...)
/* Its arguments when `code` is kept, else nothing (table entries of kept ops only). */
#define EL_IF_KEPT(code, ...) EL_SEL_CAT(EL_SEL_IF_, EL_IS_KEPT(code))(__VA_ARGS__)

#endif /* EDGELITE_OP_SELECTION_H_ */
