/* The model and input bytes a firmware image carries (model_data.c is generated per model). */
#ifndef EDGELITE_BOARD_MODEL_DATA_H_
#define EDGELITE_BOARD_MODEL_DATA_H_

#include <stddef.h>

extern const unsigned char el_fw_model[];
extern const size_t el_fw_model_len;
extern const int el_fw_num_inputs;
extern const unsigned char* const el_fw_inputs[];
extern const size_t el_fw_input_lens[];

#endif /* EDGELITE_BOARD_MODEL_DATA_H_ */
