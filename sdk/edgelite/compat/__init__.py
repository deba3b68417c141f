"""tf.compat: `import edgelite.compat.v1 as tf` gives the same TF1-style API as `import edgelite as tf`."""
import sys

import edgelite
from edgelite.compat.text import (  # noqa: F401
    as_bytes, as_str, as_str_any, as_text, bytes_or_text_types, complex_types, integral_types, path_to_str,
    real_types,
)
from edgelite.framework.tensor_shape import dimension_at_index, dimension_value  # noqa: F401

v1 = edgelite
sys.modules[__name__ + ".v1"] = edgelite
