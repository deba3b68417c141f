"""UNIQUE and SPARSE_TO_DENSE edge cases against LiteRT (the random cases are in cov_cases.py):
repeated indices, a scalar value for many indices, the prepare-time refusals, and the bad input
TFLite does not check (an index outside the output), which must be an error and not a write."""
from __future__ import annotations

import numpy as np
import pytest

from covlib import check_against_litert, ours_cls
from support.tflite_builder import TensorSpec as S, options, single_op_model


def std_model(indices_shape, out_shape, values_shape, dtype=np.float32, const_shape=True) -> bytes:
    shape = np.array(out_shape, np.int32)
    return single_op_model(
        "SPARSE_TO_DENSE",
        [S(indices_shape, np.int32), S([len(out_shape)], np.int32, data=shape if const_shape else None),
         S(values_shape, dtype), S([], dtype)],
        [S(out_shape, dtype)], options=options("SparseToDense"))


def test_repeated_indices_keep_the_last_value(litert):
    model = std_model([4, 2], [3, 3], [4])
    idx = np.array([[0, 1], [2, 2], [0, 1], [1, 0]], np.int32)
    ours = check_against_litert(litert, model, [[idx, np.arange(1, 5, dtype=np.float32), np.float32(-1)]],
                                "SPARSE_TO_DENSE repeated index")
    assert ours[0][0][0, 1] == 3.0


def test_scalar_value_for_many_indices(litert):
    model = std_model([3], [6], [], dtype=np.int8, const_shape=False)
    steps = [[np.array([5, 0, 2], np.int32), np.array([6], np.int32), np.int8(7), np.int8(-2)],
             [np.array([1, 1, 3], np.int32), np.array([4], np.int32), np.int8(-7), np.int8(2)]]
    ours = check_against_litert(litert, model, steps, "SPARSE_TO_DENSE scalar value, dynamic shape")
    assert ours[1][0].shape == (4,)


@pytest.mark.parametrize("indices_shape, out_shape, values_shape", [
    ([3], [5], [2]),        # fewer values than indices
    ([3, 2], [3, 3], [4]),  # more values than indices
    ([3, 2], [3, 3, 3], [3]),  # index width differs from the output rank
    ([2, 2, 1], [3, 3], [2]),  # 3-d indices
    ([3], [5, 5], [3]),     # vector indices into a matrix
])
def test_prepare_refusals_match_litert(litert, indices_shape, out_shape, values_shape):
    model = std_model(indices_shape, out_shape, values_shape)
    for cls in (ours_cls(), litert.Interpreter):
        with pytest.raises(RuntimeError, match="failed to prepare"):
            cls(model_content=model).allocate_tensors()


@pytest.mark.parametrize("idx", [[1, 5], [-1, 0]])
def test_index_outside_the_output_is_an_error(idx):
    it = ours_cls()(model_content=std_model([2], [5], [2]))
    it.allocate_tensors()
    for det, v in zip(it.get_input_details(), [np.array(idx, np.int32), np.ones(2, np.float32), np.float32(0)]):
        it.set_tensor(det["index"], v)
    with pytest.raises(RuntimeError, match="SPARSE_TO_DENSE: index out of range of the output"):
        it.invoke()


def test_negative_dynamic_output_dimension_is_an_error():
    it = ours_cls()(model_content=std_model([1], [5], [1], const_shape=False))
    it.allocate_tensors()
    values = [np.array([0], np.int32), np.array([-5], np.int32), np.ones(1, np.float32), np.float32(0)]
    for det, v in zip(it.get_input_details(), values):
        it.set_tensor(det["index"], v)
    with pytest.raises(RuntimeError, match="output dimension out of range"):
        it.invoke()


def unique_model(n, dtype=np.float32, idx=np.int32, rank=1) -> bytes:
    shape = [n] if rank == 1 else [n, 1]
    code = 4 if idx == np.int64 else 2
    return single_op_model("UNIQUE", [S(shape, dtype)], [S([n], dtype), S(shape, idx)],
                           options=options("Unique", idx_out_type=code))


def test_unique_keeps_first_appearance_order(litert):
    x = np.array([5, -1, 5, 7, -1, -1, 0, 7], np.int64)
    ours = check_against_litert(litert, unique_model(8, np.int64, np.int64), [[x]], "UNIQUE int64")
    assert ours[0][0].tolist() == [5, -1, 7, 0]
    assert ours[0][1].tolist() == [0, 1, 0, 2, 1, 1, 3, 2]


def test_unique_of_one_repeated_value(litert):
    check_against_litert(litert, unique_model(300, np.uint8), [[np.full(300, 9, np.uint8)]], "UNIQUE constant")


def test_unique_of_an_empty_vector_reads_like_litert(litert):
    """Both runtimes run it, and both refuse to read the zero-byte dynamic output."""
    for cls in (ours_cls(), litert.Interpreter):
        it = cls(model_content=unique_model(0))
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], np.zeros(0, np.float32))
        it.invoke()
        values, index = it.get_output_details()
        assert it.get_tensor(index["index"]).shape == (0,)
        with pytest.raises(ValueError, match="Invalid tensor size."):
            it.get_tensor(values["index"])


def test_unique_of_many_distinct_values(litert):
    x = np.random.default_rng(1).permutation(5000).astype(np.int32) - 2500
    check_against_litert(litert, unique_model(5000, np.int32), [[np.concatenate([x[:2500], x[:2500]])]],
                         "UNIQUE 2500 distinct")


def test_unique_refuses_a_matrix_like_litert(litert):
    for cls in (ours_cls(), litert.Interpreter):
        with pytest.raises(RuntimeError, match="failed to prepare"):
            cls(model_content=unique_model(4, rank=2)).allocate_tensors()
