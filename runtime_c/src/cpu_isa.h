/* Instruction-set levels of the optimized kernels, detected at run time.
 *
 * Every optimized kernel has a plain C body (EL_ISA_SCALAR, what the compiler vectorizes for the
 * build's baseline) and may have bodies for higher levels; a node picks its body in prepare from
 * the level its interpreter runs at (the best the CPU has, unless EDGELITE_ISA or the
 * interpreter option asks for a lower one). */
#ifndef EDGELITE_CPU_ISA_H_
#define EDGELITE_CPU_ISA_H_

#include <stdbool.h>

typedef enum el_isa {
  EL_ISA_SCALAR = 0,
  EL_ISA_AVX2 = 1,        /* x86-64: AVX2 + FMA */
  EL_ISA_AVX512 = 2,      /* x86-64: AVX-512 F/BW/DQ/VL */
  EL_ISA_AVX512_VNNI = 3, /* x86-64: AVX-512 with VNNI int8 dot products */
  EL_ISA_NEON = 4,        /* aarch64: Advanced SIMD */
  EL_ISA_NEON_DOT = 5,    /* aarch64: Advanced SIMD with SDOT */
  EL_ISA_COUNT = 6
} el_isa;

/* The level's name as EDGELITE_ISA spells it ("scalar", "avx2", ...). */
const char* el_isa_name(el_isa isa);
/* Parses a name (also "auto": the best level); false for an unknown name. */
bool el_isa_parse(const char* name, el_isa* out, bool* is_auto);
/* True when this CPU (and OS) runs the level. */
bool el_isa_supported(el_isa isa);
/* The best level this CPU runs. */
el_isa el_isa_best(void);
/* The x86 levels are ordered; so are the aarch64 ones. True when code for `need` may run on a
 * node configured for `have`. */
bool el_isa_at_least(el_isa have, el_isa need);

/* True when the CPU has AMX-TILE and AMX-INT8 and the OS lets this process use the tile data
 * (Linux asks for it with arch_prctl(ARCH_REQ_XCOMP_PERM), which is per process, idempotent and
 * covers every thread of it). Kernels take the AMX bodies only at the "auto" level, so that
 * EDGELITE_ISA=avx512_vnni keeps the VNNI ones. */
bool el_isa_amx_int8_ready(void);

#endif /* EDGELITE_CPU_ISA_H_ */
