# Cross-compiling the freestanding core for Cortex-M with Debian's gcc-arm-none-eabi:
#   cmake -S . -B build-m4 -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DEDGELITE_FREESTANDING=ON \
#         -DEDGELITE_CPU=cortex-m4 [-DEDGELITE_OP_SELECTION=ops.h]
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(EDGELITE_CPU "cortex-m4" CACHE STRING "Cortex-M core: cortex-m4, cortex-m7 or cortex-m33")
if(EDGELITE_CPU STREQUAL "cortex-m4")
  set(EDGELITE_CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
elseif(EDGELITE_CPU STREQUAL "cortex-m7")
  set(EDGELITE_CPU_FLAGS "-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16")
elseif(EDGELITE_CPU STREQUAL "cortex-m33")
  set(EDGELITE_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
else()
  message(FATAL_ERROR "EDGELITE_CPU must be cortex-m4, cortex-m7 or cortex-m33, not ${EDGELITE_CPU}")
endif()
set(CMAKE_C_FLAGS_INIT "${EDGELITE_CPU_FLAGS}")
set(CMAKE_C_FLAGS_RELEASE_INIT "-Os -DNDEBUG")
set(CMAKE_C_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
