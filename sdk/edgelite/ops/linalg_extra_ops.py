"""Matrix ops of tf.linalg and their TF1 names: band_part, set_diag, tensor diag, trace, inverse, determinants,
solves (general, least squares, triangular, Cholesky), Cholesky, SVD, symmetric eigen-decomposition, eye, with the
gradients TensorFlow defines for them."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.linalg_ops import matrix_diag, matrix_diag_part
from edgelite.ops.shape_checks import shape_error, with_rank_at_least

_LINALG_TYPES = [dtypes.float64, dtypes.float32, dtypes.float16, dtypes.complex64, dtypes.complex128]
_INDEX = [dtypes.int32, dtypes.int64]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _wide(fn: Callable) -> Callable:
    """fn on float16 inputs computed in float32 (numpy's linalg has no half precision), cast back."""
    def wrapped(*xs: np.ndarray) -> Any:
        dt = xs[0].dtype
        if dt == np.float16:
            out = fn(*[x.astype(np.float32) for x in xs])
            return tuple(o.astype(dt) for o in out) if isinstance(out, tuple) else out.astype(dt)
        return fn(*xs)
    return wrapped


def _adjoint_np(x: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(x, -1, -2))


def _square_shape(op: Any, columns_first: bool = False) -> list:
    s = with_rank_at_least(op, 0, 2)
    if s.ndims is None:
        return [None]
    m, n = s.as_list()[-2:]
    if m is not None and n is not None and m != n:
        # TF's shape functions name the two sizes in different orders for different ops
        first, second = (n, m) if columns_first else (m, n)
        raise shape_error(op, f"Dimensions must be equal, but are {first} and {second}")
    return [s]


def _batch_scalar_shape(op: Any) -> list:
    s = _square_shape(op, columns_first=True)[0]
    return [None if s is None else s.as_list()[:-2]]


def _solve_shape(op: Any) -> list:
    a = _square_shape(op)[0]
    b = with_rank_at_least(op, 1, 2)
    if a is None or b.ndims is None:
        return [None]
    n = a.as_list()[-1]
    rows = b.as_list()[-2]
    if n is not None and rows is not None and n != rows:
        raise shape_error(op, f"Dimensions must be equal, but are {n} and {rows}")
    return [b]


# ---- band_part / set_diag / tensor diag ---------------------------------------------------------------------------
def _band_part_kernel(ctx: Any, x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    if x.ndim < 2:
        raise _invalid(f"input must be at least 2-dim, received shape: {list(x.shape)}")
    m, n = x.shape[-2:]
    lo, up = int(lower), int(upper)
    if lo > m:
        raise _invalid(f"num_lower must be negative or less or equal to number of rows ({m}) got: {lo}")
    if up > n:
        raise _invalid(f"num_upper must be negative or less or equal to number of columns ({n}) got: {up}")
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return np.where(keep, x, np.zeros((), x.dtype))


def _band_part_shape(op: Any) -> list:
    # TF 2.21 checks the rank only when the op runs
    return [op.inputs[0].shape]


register_op("MatrixBandPart", inputs=["input: T", "num_lower: Tindex", "num_upper: Tindex"], outputs=["band: T"],
            attrs={"Tindex": dtypes.int64}, kernel=_band_part_kernel, shape_fn=_band_part_shape,
            allowed_dtypes={"Tindex": _INDEX})


@ops.RegisterGradient("MatrixBandPart")
def _band_part_grad(op: Any, grad: Any) -> tuple:
    return matrix_band_part(grad, op.inputs[1], op.inputs[2]), None, None


def matrix_band_part(input: Any, num_lower: Any, num_upper: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Everything outside the band (num_lower sub-, num_upper super-diagonals; negative = all) set to 0."""
    with ops.name_scope(name, "MatrixBandPart", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        lower = ops.convert_to_tensor(num_lower, name="num_lower", dtype_hint=dtypes.int64)
        upper = ops.convert_to_tensor(num_upper, name="num_upper", dtype=lower.dtype.base_dtype)
        return ops.apply_op("MatrixBandPart", [x, lower, upper], name=scope)


def _set_diag_kernel(ctx: Any, x: np.ndarray, diagonal: np.ndarray, k: np.ndarray) -> np.ndarray:
    k = int(np.asarray(k).reshape(-1)[0])
    m, n = x.shape[-2:]
    length = min(m + min(k, 0), n - max(k, 0))
    if diagonal.shape[-1] != length or diagonal.shape[:-1] != x.shape[:-2]:
        def fmt(shape: tuple) -> str:
            return "[" + ",".join(str(d) for d in shape) + "]"
        raise _invalid("Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is "
                       "not equal to the longests diagonal in range [lower_diag_index:upper_diag_index].\nInput "
                       f"shape: {fmt(x.shape)}\nDiagonal shape: {fmt(diagonal.shape)}\nExpected diagonal shape: "
                       f"{fmt(x.shape[:-2] + (length,))}")
    out = x.copy()
    t = np.arange(length)
    out[..., t - min(k, 0), t + max(k, 0)] = diagonal
    return out


def _set_diag_shape(op: Any) -> list:
    x = with_rank_at_least(op, 0, 2)
    with_rank_at_least(op, 1, 1)
    return [x]


register_op("MatrixSetDiagV3", inputs=["input: T", "diagonal: T", "k: int32"], outputs=["output: T"],
            attrs={"align": "RIGHT_LEFT"}, kernel=_set_diag_kernel, shape_fn=_set_diag_shape)


def _diag_k_part(x: np.ndarray, k: int) -> np.ndarray:
    m, n = x.shape[-2:]
    length = min(m + min(k, 0), n - max(k, 0))
    t = np.arange(length)
    return x[..., t - min(k, 0), t + max(k, 0)]


register_op("MatrixDiagPartK", inputs=["input: T", "k: int32"], outputs=["diagonal: T"],
            kernel=lambda ctx, x, k: _diag_k_part(x, int(k)), shape_fn=lambda op: [None])
ops.NoGradient("MatrixDiagPartK")


@ops.RegisterGradient("MatrixSetDiagV3")
def _set_diag_grad(op: Any, grad: Any) -> tuple:
    k = op.inputs[2]
    diag_grad = ops.apply_op("MatrixDiagPartK", [grad, k])
    diag_grad.set_shape(op.inputs[1].shape)
    return ops.apply_op("MatrixSetDiagV3", [grad, array_ops.zeros_like(op.inputs[1]), k]), diag_grad, None


def matrix_set_diag(input: Any, diagonal: Any, name: str = "set_diag", k: int = 0,  # noqa: A002
                    align: str = "RIGHT_LEFT") -> ops.Tensor:
    """input with its k-th diagonal (0 main, > 0 above, < 0 below) replaced by diagonal."""
    if not isinstance(k, (int, np.integer)):
        raise TypeError(f"edgelite's matrix_set_diag takes one diagonal offset k (an int), got {k!r}")
    return ops.apply_op("MatrixSetDiagV3", [input, diagonal, np.int32(k)], {"align": align}, name=name)


_DIAG_TYPES = [dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64,
               dtypes.complex64, dtypes.complex128]


def _tensor_diag_kernel(ctx: Any, d: np.ndarray) -> np.ndarray:
    flat = d.reshape(-1)
    return np.diag(flat).reshape(d.shape + d.shape)


def _tensor_diag_part_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    half = x.ndim // 2
    if x.ndim % 2 or x.shape[:half] != x.shape[half:]:
        raise _invalid(f"Invalid shape {list(x.shape)}: dimensions must be of the form [d1,...,dk,d1,...,dk]")
    size = int(np.prod(x.shape[:half]))
    return np.diagonal(x.reshape(size, size)).reshape(x.shape[:half])


def _tensor_diag_part_shape(op: Any) -> list:
    s = op.inputs[0].shape
    if s.ndims is None:
        return [None]
    if s.ndims % 2:
        raise shape_error(op, f"Input must have even and non-zero rank, input rank is {s.ndims}")
    half = s.ndims // 2
    dims = s.as_list()
    return [[a if a is not None else b for a, b in zip(dims[:half], dims[half:])]]


register_op("Diag", inputs=["diagonal: T"], outputs=["output: T"], kernel=_tensor_diag_kernel,
            shape_fn=lambda op: [None if op.inputs[0].shape.ndims is None
                                 else op.inputs[0].shape.concatenate(op.inputs[0].shape)],
            allowed_dtypes={"T": _DIAG_TYPES})
register_op("DiagPart", inputs=["input: T"], outputs=["diagonal: T"], kernel=_tensor_diag_part_kernel,
            shape_fn=_tensor_diag_part_shape, allowed_dtypes={"T": _DIAG_TYPES})


@ops.RegisterGradient("Diag")
def _tensor_diag_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("DiagPart", [grad])


@ops.RegisterGradient("DiagPart")
def _tensor_diag_part_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("Diag", [grad])


def diag(diagonal: Any, name: Optional[str] = None) -> ops.Tensor:
    """A rank-2k tensor with diagonal (rank k) on its diagonal: out[i..., i...] = diagonal[i...]."""
    return ops.apply_op("Diag", [diagonal], name=name)


def diag_part(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The diagonal of a rank-2k tensor: out[i...] = input[i..., i...]."""
    return ops.apply_op("DiagPart", [input], name=name)


def trace(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Sum of the main diagonal of each innermost matrix."""
    with ops.name_scope(name, "Trace", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        return math_ops.reduce_sum(matrix_diag_part(x), [-1], name=scope)


# ---- inverse and determinants -------------------------------------------------------------------------------------
def _inverse_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    if ctx.attrs["adjoint"]:
        x = _adjoint_np(x)
    try:
        inv = _wide(np.linalg.inv)(x)
    except np.linalg.LinAlgError:
        raise _invalid("Input is not invertible.") from None
    if not np.isfinite(inv).all() and np.isfinite(x).all():
        raise _invalid("Input is not invertible.")
    return inv


register_op("MatrixInverse", inputs=["input: T"], outputs=["output: T"], attrs={"adjoint": False},
            kernel=_inverse_kernel, shape_fn=_square_shape, allowed_dtypes={"T": _LINALG_TYPES})


@ops.RegisterGradient("MatrixInverse")
def _inverse_grad(op: Any, grad: Any) -> Any:
    ainv = op.outputs[0]
    adj = op.get_attr("adjoint")
    inner = math_ops.matmul(grad, ainv, adjoint_a=adj, adjoint_b=not adj)
    return -math_ops.matmul(ainv, inner, adjoint_a=not adj)


def matrix_inverse(input: Any, adjoint: bool = False, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The inverse (of the adjoint, if adjoint) of each innermost square matrix."""
    return ops.apply_op("MatrixInverse", [input], {"adjoint": adjoint}, name=name)


register_op("MatrixDeterminant", inputs=["input: T"], outputs=["output: T"],
            kernel=lambda ctx, x: _wide(np.linalg.det)(x), shape_fn=_batch_scalar_shape,
            allowed_dtypes={"T": _LINALG_TYPES})


def _slogdet_kernel(ctx: Any, x: np.ndarray) -> tuple:
    sign, logabs = _wide(np.linalg.slogdet)(x)
    return np.asarray(sign, x.dtype), np.asarray(logabs, x.dtype)


register_op("LogMatrixDeterminant", inputs=["input: T"], outputs=["sign: T", "log_abs_determinant: T"],
            kernel=_slogdet_kernel, shape_fn=lambda op: _batch_scalar_shape(op) * 2,
            allowed_dtypes={"T": _LINALG_TYPES})


def _per_matrix(scalars: Any, like: Any) -> Any:
    """A per-matrix scalar shaped to broadcast against the matrices: [..., 1, 1]."""
    return array_ops.reshape(scalars, array_ops.concat([array_ops.shape(like), [1, 1]], 0))


@ops.RegisterGradient("MatrixDeterminant")
def _det_grad(op: Any, grad: Any) -> Any:
    a, c = op.inputs[0], op.outputs[0]
    return _per_matrix(grad * c, c) * matrix_inverse(a, adjoint=True)


@ops.RegisterGradient("LogMatrixDeterminant")
def _slogdet_grad(op: Any, _grad_sign: Any, grad_logdet: Any) -> Any:
    a, c = op.inputs[0], op.outputs[1]
    return _per_matrix(grad_logdet, c) * matrix_inverse(a, adjoint=True)


def matrix_determinant(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The determinant of each innermost square matrix."""
    return ops.apply_op("MatrixDeterminant", [input], name=name)


def slogdet(input: Any, name: Optional[str] = None) -> list:  # noqa: A002
    """(sign, log|det|) of each innermost square matrix."""
    return ops.apply_op("LogMatrixDeterminant", [input], name=name)


def logdet(matrix: Any, name: Optional[str] = None) -> ops.Tensor:
    """log det of Hermitian positive definite matrices, from their Cholesky factor."""
    with ops.name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        return 2.0 * math_ops.reduce_sum(math_ops.log(matrix_diag_part(chol)), axis=[-1])


# ---- solves -------------------------------------------------------------------------------------------------------
def _solve_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.shape[:-2] != b.shape[:-2]:
        raise _invalid("All input tensors must have the same outer dimensions.")
    if ctx.attrs["adjoint"]:
        a = _adjoint_np(a)
    try:
        out = _wide(np.linalg.solve)(a, b)
    except np.linalg.LinAlgError:
        raise _invalid("Input matrix is not invertible.") from None
    return out


register_op("MatrixSolve", inputs=["matrix: T", "rhs: T"], outputs=["output: T"], attrs={"adjoint": False},
            kernel=_solve_kernel, shape_fn=_solve_shape, allowed_dtypes={"T": _LINALG_TYPES})


@ops.RegisterGradient("MatrixSolve")
def _solve_grad(op: Any, grad: Any) -> tuple:
    a, c = op.inputs[0], op.outputs[0]
    adj = op.get_attr("adjoint")
    grad_b = matrix_solve(a, grad, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    return grad_a, grad_b


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """X with matrix @ X = rhs (or adjoint(matrix) @ X = rhs)."""
    return ops.apply_op("MatrixSolve", [matrix, rhs], {"adjoint": adjoint}, name=name)


def _substitute(tri: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """Forward (lower) or back (upper) substitution, batched; a zero pivot gives inf/nan as in TF's kernel."""
    n = tri.shape[-1]
    x = np.zeros(np.broadcast_shapes(tri.shape[:-2], b.shape[:-2]) + b.shape[-2:], dtype=np.result_type(tri, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            acc = b[..., i, :] - np.einsum("...k,...kj->...j", tri[..., i, :], x)
            x[..., i, :] = acc / tri[..., i, i][..., None]
    return x


def _triangular_solve_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    lower = ctx.attrs["lower"]
    tri = np.tril(a) if lower else np.triu(a)
    if ctx.attrs["adjoint"]:
        tri, lower = _adjoint_np(tri), not lower
    return _substitute(tri, b, lower).astype(a.dtype, copy=False)


def _triangular_solve_shape(op: Any) -> list:
    a = _square_shape(op)[0]
    b = with_rank_at_least(op, 1, 2)
    if a is None or b.ndims is None:
        return [None]
    batch = np.broadcast_shapes(*[tuple(1 if d is None else d for d in s.as_list()[:-2]) for s in (a, b)])
    return [list(batch) + b.as_list()[-2:]]


register_op("MatrixTriangularSolve", inputs=["matrix: T", "rhs: T"], outputs=["output: T"],
            attrs={"lower": True, "adjoint": False}, kernel=_triangular_solve_kernel,
            shape_fn=_triangular_solve_shape, allowed_dtypes={"T": [dtypes.bfloat16] + _LINALG_TYPES})


@ops.RegisterGradient("MatrixTriangularSolve")
def _triangular_solve_grad(op: Any, grad: Any) -> tuple:
    from edgelite.ops.math_extra_ops import unbroadcast
    a, b, c = op.inputs[0], op.inputs[1], op.outputs[0]
    adj, lower = op.get_attr("adjoint"), op.get_attr("lower")
    grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    grad_a = matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1)
    return unbroadcast(grad_a, a), unbroadcast(grad_b, b)


def matrix_triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                            name: Optional[str] = None) -> ops.Tensor:
    """X with triangular(matrix) @ X = rhs, reading only the lower (or upper) triangle of matrix."""
    return ops.apply_op("MatrixTriangularSolve", [matrix, rhs], {"lower": lower, "adjoint": adjoint}, name=name)


def _gramian_solve(a: np.ndarray, b: np.ndarray, l2: float) -> np.ndarray:
    m, n = a.shape[-2:]
    ah = _adjoint_np(a)
    if m >= n:
        gram = ah @ a + l2 * np.eye(n, dtype=a.dtype)
        return np.linalg.solve(gram, ah @ b)
    gram = a @ ah + l2 * np.eye(m, dtype=a.dtype)
    return ah @ np.linalg.solve(gram, b)


def _solve_ls_kernel(ctx: Any, a: np.ndarray, b: np.ndarray, l2: np.ndarray) -> np.ndarray:
    l2 = float(l2)
    if l2 < 0:
        raise _invalid("l2_regularizer must be non-negative")
    if ctx.attrs["fast"]:
        return _wide(lambda x, y: _gramian_solve(x, y, l2))(a, b)
    if l2 != 0:
        raise errors.UnimplementedError(None, None, "l2_regularizer > 0 is not supported with fast=False")
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_b = b.reshape((-1,) + b.shape[-2:])
    out = np.stack([np.linalg.lstsq(x, y, rcond=None)[0] for x, y in zip(flat_a, flat_b)])
    return out.reshape(a.shape[:-2] + out.shape[-2:]).astype(a.dtype)


def _solve_ls_shape(op: Any) -> list:
    a = with_rank_at_least(op, 0, 2)
    b = with_rank_at_least(op, 1, 2)
    if a.ndims is None or b.ndims is None:
        return [None]
    m, n = a.as_list()[-2:]
    rows = b.as_list()[-2]
    if m is not None and rows is not None and m != rows:
        raise shape_error(op, f"Dimensions must be equal, but are {m} and {rows}")
    return [a.as_list()[:-2] + [n, b.as_list()[-1]]]


register_op("MatrixSolveLs", inputs=["matrix: T", "rhs: T", "l2_regularizer: float64"], outputs=["output: T"],
            attrs={"fast": True}, kernel=_solve_ls_kernel, shape_fn=_solve_ls_shape,
            allowed_dtypes={"T": _LINALG_TYPES})


def _regularized_gramian_cholesky(a: Any, l2: Any, first_kind: bool) -> Any:
    gram = math_ops.matmul(a, a, adjoint_a=first_kind, adjoint_b=not first_kind)
    n = array_ops.shape(gram)[-1]
    return cholesky(gram + l2 * eye(n, dtype=a.dtype.base_dtype))


@ops.RegisterGradient("MatrixSolveLs")
def _solve_ls_grad(op: Any, grad: Any) -> tuple:
    """TF's gradient through the regularized normal equations (fast=True only)."""
    if not op.get_attr("fast"):
        raise ValueError("Gradient not defined for fast=False")
    a, b, x = op.inputs[0], op.inputs[1], op.outputs[0]
    l2 = math_ops.cast(op.inputs[2], a.dtype.base_dtype)
    m, n = a.shape.as_list()[-2:] if a.shape.ndims is not None else (None, None)
    if m is None or n is None:
        raise NotImplementedError("MatrixSolveLs gradient needs a static inner matrix shape.")
    if m >= n:
        chol = _regularized_gramian_cholesky(a, l2, True)
        z = cholesky_solve(chol, grad)
        xzt = math_ops.matmul(x, z, adjoint_b=True)
        zx_sym = xzt + array_ops.matrix_transpose(xzt)
        grad_a = -math_ops.matmul(a, zx_sym) + math_ops.matmul(b, z, adjoint_b=True)
        return grad_a, math_ops.matmul(a, z), None
    chol = _regularized_gramian_cholesky(a, l2, False)
    grad_b = cholesky_solve(chol, math_ops.matmul(a, grad))
    tmp = cholesky_solve(chol, b)
    a1 = -math_ops.matmul(grad_b, math_ops.matmul(tmp, a, adjoint_a=True))
    a2 = math_ops.matmul(tmp, grad - math_ops.matmul(a, grad_b, adjoint_a=True), adjoint_b=True)
    return a1 + a2, grad_b, None


def matrix_solve_ls(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True,
                    name: Optional[str] = None) -> ops.Tensor:
    """The (Tikhonov-regularized) least-squares solution of matrix @ X = rhs."""
    with ops.name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]) as scope:
        l2 = ops.convert_to_tensor(l2_regularizer, dtype=dtypes.float64, name="l2_regularizer")
        return ops.apply_op("MatrixSolveLs", [matrix, rhs, l2], {"fast": fast}, name=scope)


# ---- Cholesky -----------------------------------------------------------------------------------------------------
def _cholesky_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.empty_like(flat)
    for i, m in enumerate(flat):
        try:
            out[i] = _wide(np.linalg.cholesky)(m)
        except np.linalg.LinAlgError:
            # TF 2.21 does not fail: it logs and fills the lower triangle with NaN
            out[i] = np.tril(np.full_like(m, np.nan))
    return out.reshape(x.shape)


register_op("Cholesky", inputs=["input: T"], outputs=["output: T"], kernel=_cholesky_kernel, shape_fn=_square_shape,
            allowed_dtypes={"T": _LINALG_TYPES})


@ops.RegisterGradient("Cholesky")
def _cholesky_grad(op: Any, grad: Any) -> Any:
    """TF's (Murray 2016) gradient: Phi(L^H dL) conjugated by L^-1, symmetrized."""
    chol = op.outputs[0]
    shape = array_ops.shape(chol)
    l_inv = matrix_triangular_solve(chol, eye(shape[-1], batch_shape=shape[:-2], dtype=chol.dtype.base_dtype))
    middle = math_ops.matmul(chol, grad, adjoint_a=True)
    middle = matrix_set_diag(middle, 0.5 * matrix_diag_part(middle))
    middle = matrix_band_part(middle, -1, 0)
    grad_a = math_ops.matmul(math_ops.matmul(l_inv, middle, adjoint_a=True), l_inv)
    grad_a += adjoint(grad_a)
    return grad_a * 0.5


def cholesky(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The lower-triangular L with L @ L^H = input (only input's lower triangle is read)."""
    return ops.apply_op("Cholesky", [input], name=name)


def cholesky_solve(chol: Any, rhs: Any, name: Optional[str] = None) -> ops.Tensor:
    """X with A @ X = rhs, given A's Cholesky factor chol."""
    with ops.name_scope(name, "cholesky_solve", [chol, rhs]):
        y = matrix_triangular_solve(chol, rhs, adjoint=False, lower=True)
        return matrix_triangular_solve(chol, y, adjoint=True, lower=True)


# ---- SVD and symmetric eigen-decomposition ------------------------------------------------------------------------
def _svd_kernel(ctx: Any, x: np.ndarray) -> tuple:
    full, compute_uv = ctx.attrs["full_matrices"], ctx.attrs["compute_uv"]
    if not compute_uv:
        s = _wide(lambda a: np.linalg.svd(a, compute_uv=False))(x)
        shape = x.shape[:-2]
        return s, np.zeros(shape + (0,), x.dtype), np.zeros(shape + (0,), x.dtype)
    u, s, vh = _wide(lambda a: np.linalg.svd(a, full_matrices=full))(x)
    return s.astype(x.dtype), u, _adjoint_np(vh)


def _svd_shape(op: Any) -> list:
    s = with_rank_at_least(op, 0, 2)
    if s.ndims is None:
        return [None, None, None]
    *batch, m, n = s.as_list()
    k = None if m is None or n is None else min(m, n)
    if not op.get_attr("compute_uv"):
        return [batch + [k], [0], [0]]
    if op.get_attr("full_matrices"):
        return [batch + [k], batch + [m, m], batch + [n, n]]
    return [batch + [k], batch + [m, k], batch + [n, k]]


register_op("Svd", inputs=["input: T"], outputs=["s: T", "u: T", "v: T"],
            attrs={"compute_uv": True, "full_matrices": False}, kernel=_svd_kernel, shape_fn=_svd_shape,
            allowed_dtypes={"T": _LINALG_TYPES})


def _safe_reciprocal(x: Any, epsilon: float = 1e-20) -> Any:
    return x * math_ops.reciprocal(x * x + epsilon)


@ops.RegisterGradient("Svd")
def _svd_grad(op: Any, grad_s: Any, grad_u: Any, grad_v: Any) -> Any:
    """TF's SVD gradient (Townsend's formulas), via the adjoint for tall matrices."""
    a = op.inputs[0]
    grad_s_mat = matrix_diag(grad_s)
    if not op.get_attr("compute_uv"):
        _, u, v = svd(a, compute_uv=True)
        return math_ops.matmul(u, math_ops.matmul(grad_s_mat, v, adjoint_b=True))
    full = op.get_attr("full_matrices")
    m, n = a.shape.as_list()[-2:] if a.shape.ndims is not None else (None, None)
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix shape.")
    s, u, v = op.outputs
    use_adjoint = m > n
    if use_adjoint:
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    if full and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True")
    s_mat = matrix_diag(s)
    s_2 = math_ops.square(s)
    f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(s_2, -2) - array_ops.expand_dims(s_2, -1)),
                        array_ops.zeros_like(s))
    s_inv_mat = matrix_diag(_safe_reciprocal(s))
    v1 = v[..., :, :m]
    grad_v1 = grad_v[..., :, :m]
    f_u = f * math_ops.matmul(u, grad_u, adjoint_a=True)
    f_v = f * math_ops.matmul(v1, grad_v1, adjoint_a=True)
    term1_nouv = (grad_s_mat + math_ops.matmul(f_u + adjoint(f_u), s_mat)
                  + math_ops.matmul(s_mat, f_v + adjoint(f_v)))
    grad_a = math_ops.matmul(u, math_ops.matmul(term1_nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = array_ops.matrix_transpose(grad_v1)
        term2_nous = gv1t - math_ops.matmul(math_ops.matmul(gv1t, v1), v1, adjoint_b=True)
        if full:
            v2 = v[..., :, m:n]
            grad_v2 = grad_v[..., :, m:n]
            term2_nous -= math_ops.matmul(math_ops.matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
        grad_a = grad_a + math_ops.matmul(math_ops.matmul(u, s_inv_mat), term2_nous)
    return array_ops.matrix_transpose(grad_a) if use_adjoint else grad_a


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: Optional[str] = None) -> Any:
    """Singular values s (descending) and, if compute_uv, u and v with tensor = u @ diag(s) @ adjoint(v)."""
    s, u, v = ops.apply_op("Svd", [tensor], {"full_matrices": full_matrices, "compute_uv": compute_uv}, name=name)
    return (s, u, v) if compute_uv else s


def _eigh_kernel(ctx: Any, x: np.ndarray) -> tuple:
    if ctx.attrs["compute_v"]:
        e, v = _wide(lambda a: np.linalg.eigh(a, UPLO="L"))(x)
        return e.astype(x.dtype), v
    e = _wide(lambda a: np.linalg.eigvalsh(a, UPLO="L"))(x)
    return e.astype(x.dtype), np.zeros(x.shape[:-2] + (0,), x.dtype)


def _eigh_shape(op: Any) -> list:
    s = _square_shape(op)[0]
    if s is None:
        return [None, None]
    dims = s.as_list()
    return [dims[:-1], dims if op.get_attr("compute_v") else [0]]


register_op("SelfAdjointEigV2", inputs=["input: T"], outputs=["e: T", "v: T"], attrs={"compute_v": True},
            kernel=_eigh_kernel, shape_fn=_eigh_shape, allowed_dtypes={"T": _LINALG_TYPES})


@ops.RegisterGradient("SelfAdjointEigV2")
def _eigh_grad(op: Any, grad_e: Any, grad_v: Any) -> Any:
    """TF's gradient: V (diag(dE) + F * V^H dV) V^H, symmetrized into the lower triangle the op reads."""
    e = op.outputs[0]
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
                            array_ops.zeros_like(e))
        inner = matrix_diag(grad_e) + f * math_ops.matmul(v, grad_v, adjoint_a=True)
    else:
        _, v = self_adjoint_eig(op.inputs[0])
        inner = matrix_diag(grad_e)
    grad_a = math_ops.matmul(v, math_ops.matmul(inner, v, adjoint_b=True))
    grad_a = matrix_band_part(grad_a + adjoint(grad_a), -1, 0)
    return matrix_set_diag(grad_a, 0.5 * matrix_diag_part(grad_a))


def self_adjoint_eig(tensor: Any, name: Optional[str] = None) -> tuple:
    """Eigenvalues (ascending) and eigenvectors of self-adjoint matrices (lower triangle read)."""
    e, v = ops.apply_op("SelfAdjointEigV2", [tensor], {"compute_v": True}, name=name)
    return e, v


def self_adjoint_eigvals(tensor: Any, name: Optional[str] = None) -> ops.Tensor:
    """Eigenvalues (ascending) of self-adjoint matrices."""
    e, _ = ops.apply_op("SelfAdjointEigV2", [tensor], {"compute_v": False}, name=name)
    return e


# ---- small helpers: eye, adjoint, matvec --------------------------------------------------------------------------
def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = dtypes.float32,
        name: Optional[str] = None) -> ops.Tensor:
    """Identity matrices [*batch_shape, num_rows, num_columns] (ones on the main diagonal)."""
    with ops.name_scope(name, "eye", [num_rows, num_columns, batch_shape]) as scope:
        dtype = dtypes.as_dtype(dtype)
        static = [tensor_util.constant_value(ops.convert_to_tensor(v)) if v is not None else None
                  for v in (num_rows, num_columns, batch_shape)]
        if all(v is not None or arg is None for v, arg in zip(static, (num_rows, num_columns, batch_shape))):
            rows = int(static[0])
            cols = rows if num_columns is None else int(static[1])
            batch = [] if batch_shape is None else [int(d) for d in np.atleast_1d(static[2])]
            value = np.broadcast_to(np.eye(rows, cols, dtype=dtype.as_numpy_dtype), batch + [rows, cols])
            return ops.convert_to_tensor(np.ascontiguousarray(value), name=scope)
        rows = ops.convert_to_tensor(num_rows, dtype=dtypes.int32)
        cols = rows if num_columns is None else ops.convert_to_tensor(num_columns, dtype=dtypes.int32)
        batch = (ops.convert_to_tensor([], dtype=dtypes.int32) if batch_shape is None
                 else ops.convert_to_tensor(batch_shape, dtype=dtypes.int32))
        zeros = array_ops.zeros(array_ops.concat([batch, array_ops.stack([rows, cols])], 0), dtype=dtype)
        ones = array_ops.ones(array_ops.concat([batch, [math_ops.minimum(rows, cols)]], 0), dtype=dtype)
        return matrix_set_diag(zeros, ones, name=scope)


def adjoint(matrix: Any, name: Optional[str] = None) -> ops.Tensor:
    """The conjugate transpose of each innermost matrix."""
    with ops.name_scope(name, "adjoint", [matrix]):
        return array_ops.matrix_transpose(ops.convert_to_tensor(matrix, name="matrix"), conjugate=True)


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """a @ b for matrices a and vectors b (batched)."""
    with ops.name_scope(name, "MatVec", [a, b]):
        b = array_ops.expand_dims(ops.convert_to_tensor(b, name="b"), -1)
        return array_ops.squeeze(math_ops.matmul(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a), [-1])
