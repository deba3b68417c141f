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
from edgelite.ops.linalg_extra_ops import (  # noqa: F401,E402
    adjoint, cholesky, cholesky_solve, eye, logdet, matvec, slogdet, svd, trace,
)
from edgelite.ops.linalg_extra_ops import diag as tensor_diag  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import diag_part as tensor_diag_part  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_band_part as band_part  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_determinant as det  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_inverse as inv  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_set_diag as set_diag  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_solve as solve  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_solve_ls as lstsq  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import matrix_triangular_solve as triangular_solve  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import self_adjoint_eig as eigh  # noqa: F401,E402
from edgelite.ops.linalg_extra_ops import self_adjoint_eigvals as eigvalsh  # noqa: F401,E402
