"""GATHER_ND copies index tuples whose slices follow each other in params as one block: the
result must still be params[tuple(indices.T)] for runs, repeats, reversals and single slices,
and an index out of range anywhere must fail the invoke."""
from __future__ import annotations

import numpy as np
import pytest

from support.tflite_builder import ModelBuilder


def _model(params: np.ndarray, idx_shape: list) -> bytes:
    mb = ModelBuilder()
    g = mb.subgraph("main")
    p = g.tensor(list(params.shape), params.dtype, name="params", data=params)
    i = g.tensor(idx_shape, np.int32, name="indices")
    k = idx_shape[-1]
    out = g.tensor(idx_shape[:-1] + list(params.shape[k:]), params.dtype, name="out")
    g.op("GATHER_ND", [p, i], [out])
    g.set_io([i], [out])
    return mb.build()


def _gather(params: np.ndarray, indices: np.ndarray) -> np.ndarray:
    import edgelite_runtime

    it = edgelite_runtime.Interpreter(model_content=_model(params, list(indices.shape)))
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], indices)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


@pytest.mark.parametrize("rows", [
    [0, 1, 2, 3, 4, 5],          # one run over all of params
    [2, 3, 4, 0, 1, 7, 8, 9],    # three runs
    [5, 5, 6, 6, 7],             # repeats break runs
    [9, 8, 7, 6],                # descending: no runs
    [3],                         # a single slice
])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.int64])
def test_runs_of_slices_match_numpy(rows, dtype):
    params = np.arange(10 * 3 * 2).reshape(10, 3, 2).astype(dtype)
    indices = np.array(rows, np.int32).reshape(-1, 1)
    np.testing.assert_array_equal(_gather(params, indices), params[tuple(indices.T)])


def test_two_level_indices_with_runs():
    params = np.arange(4 * 5 * 3, dtype=np.float32).reshape(4, 5, 3)
    indices = np.array([[[1, 2], [1, 3], [1, 4], [2, 0]], [[3, 3], [3, 4], [0, 0], [0, 1]]], np.int32)
    np.testing.assert_array_equal(_gather(params, indices), params[tuple(np.moveaxis(indices, -1, 0))])


def test_index_out_of_range_after_a_run_fails():
    params = np.arange(12, dtype=np.float32).reshape(6, 2)
    with pytest.raises(RuntimeError, match="gather_nd index out of bounds"):
        _gather(params, np.array([[0], [1], [2], [6]], np.int32))
