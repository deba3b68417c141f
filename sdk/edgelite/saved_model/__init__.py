"""tf.compat.v1.saved_model: write and read SavedModels (saved_model.pb + variables/ + assets/) the TF1 way."""
from edgelite.saved_model import (  # noqa: F401
    builder, constants, loader, main_op, signature_constants, signature_def_utils, tag_constants, utils,
)
from edgelite.saved_model.builder import Builder  # noqa: F401
from edgelite.saved_model.constants import (  # noqa: F401
    ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB, LEGACY_INIT_OP_KEY, MAIN_OP_KEY,
    SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY,
    VARIABLES_FILENAME,
)
from edgelite.saved_model.loader import contains_saved_model, load, maybe_saved_model_directory  # noqa: F401
from edgelite.saved_model.main_op import main_op_with_restore  # noqa: F401
from edgelite.saved_model.signature_constants import (  # noqa: F401
    CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES,
    DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS, REGRESS_INPUTS,
    REGRESS_METHOD_NAME, REGRESS_OUTPUTS,
)
from edgelite.saved_model.signature_def_utils import (  # noqa: F401
    build_signature_def, classification_signature_def, is_valid_signature, predict_signature_def,
    regression_signature_def,
)
from edgelite.saved_model.simple_save import simple_save  # noqa: F401
from edgelite.saved_model.tag_constants import GPU, SERVING, TPU, TRAINING  # noqa: F401
from edgelite.saved_model.utils import build_tensor_info, get_tensor_from_tensor_info  # noqa: F401
