"""tf.linalg: matrix products and a few decompositions."""
from edgelite.ops.array_ops import matrix_transpose  # noqa: F401
from edgelite.ops.linalg_ops import matrix_diag as diag  # noqa: F401
from edgelite.ops.linalg_ops import matrix_diag_part as diag_part  # noqa: F401
from edgelite.ops.linalg_ops import qr  # noqa: F401
from edgelite.ops.math_ops import matmul, norm, tensordot  # noqa: F401
from edgelite.nn import l2_normalize  # noqa: F401
from edgelite.train.clip_ops import global_norm  # noqa: F401

transpose = matrix_transpose

# ---- core ops (tf1ops) ----
from edgelite.ops.einsum_ops import einsum  # noqa: F401,E402
from edgelite.ops.math_extra_ops import cross  # noqa: F401,E402
