"""RESHAPE, SQUEEZE and EXPAND_DIMS on built models: a chain of them is one buffer, a graph
output is never folded onto its input, a graph input read again later still holds its values,
and every output equals numpy's."""
from __future__ import annotations

import numpy as np
import pytest
from support.tflite_builder import ModelBuilder, options

from edgelite_runtime.interpreter import Interpreter


def _i32(g, values, name):
    return g.tensor([len(values)], np.int32, name=name, data=np.array(values, np.int32))


def _chain_model() -> bytes:
    """x -> ADD(x, x) -> EXPAND_DIMS -> SQUEEZE -> RESHAPE -> ADD(d, d) -> y."""
    mb = ModelBuilder()
    g = mb.subgraph()
    x = g.tensor([1, 4, 6], np.float32, name="x")
    a = g.tensor([1, 4, 6], np.float32, name="a")
    b = g.tensor([1, 1, 4, 6], np.float32, name="b")
    c = g.tensor([1, 4, 6], np.float32, name="c")
    d = g.tensor([24], np.float32, name="d")
    y = g.tensor([24], np.float32, name="y")
    g.op("ADD", [x, x], [a], options=options("Add"))
    g.op("EXPAND_DIMS", [a, g.tensor([], np.int32, name="axis", data=np.array(1, np.int32))], [b])
    g.op("SQUEEZE", [b], [c], options=options("Squeeze", squeeze_dims=[1]))
    g.op("RESHAPE", [c, _i32(g, [24], "shape")], [d], options=options("Reshape", new_shape=[24]))
    g.op("ADD", [d, d], [y], options=options("Add"))
    g.set_io([x], [y])
    return mb.build()


def _output_model() -> bytes:
    """x -> RESHAPE -> r; a = r + r; y = RESHAPE(a) (a graph output); z = a + r (r read again)."""
    mb = ModelBuilder()
    g = mb.subgraph()
    x = g.tensor([2, 6], np.float32, name="x")
    r = g.tensor([12], np.float32, name="r")
    a = g.tensor([12], np.float32, name="a")
    y = g.tensor([3, 4], np.float32, name="y")
    z = g.tensor([12], np.float32, name="z")
    g.op("RESHAPE", [x, _i32(g, [12], "s1")], [r], options=options("Reshape", new_shape=[12]))
    g.op("ADD", [r, r], [a], options=options("Add"))
    g.op("RESHAPE", [a, _i32(g, [3, 4], "s2")], [y], options=options("Reshape", new_shape=[3, 4]))
    g.op("ADD", [a, r], [z], options=options("Add"))
    g.set_io([x], [y, z])
    return mb.build()


def _names(it: Interpreter) -> dict:
    return {d["name"]: d["index"] for d in it.get_tensor_details()}


def test_reshape_like_chain_is_one_buffer():
    it = Interpreter(model_content=_chain_model())
    it.allocate_tensors()
    idx = _names(it)
    plan = it.get_arena_plan()["tensors"]
    assert len({plan[idx[n]]["offset"] for n in "abcd"}) == 1
    assert plan[idx["y"]]["offset"] != plan[idx["d"]]["offset"]
    x = np.arange(24, dtype=np.float32).reshape(1, 4, 6) - 7.5
    it.set_tensor(idx["x"], x)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(idx["y"]), ((x + x).reshape(24)) * 2)
    # One buffer for a, b, c, d: the bound holds x, that buffer and y at the last ADD.
    assert it.get_arena_info()["lower_bound_bytes"] == 3 * 24 * 4


def test_graph_output_keeps_its_own_buffer_and_inputs_survive():
    it = Interpreter(model_content=_output_model())
    it.allocate_tensors()
    idx = _names(it)
    plan = it.get_arena_plan()["tensors"]
    assert plan[idx["r"]]["offset"] == plan[idx["x"]]["offset"]  # a graph input no node writes
    assert plan[idx["y"]]["offset"] != plan[idx["a"]]["offset"]  # a graph output: its own bytes
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(2, 6)
    it.set_tensor(idx["x"], x)
    for _ in range(2):  # invoking again without set_tensor repeats the result
        it.invoke()
        np.testing.assert_array_equal(it.get_tensor(idx["y"]), (x.reshape(12) * 2).reshape(3, 4))
        np.testing.assert_array_equal(it.get_tensor(idx["z"]), x.reshape(12) * 3)
        np.testing.assert_array_equal(it.get_tensor(idx["x"]), x)


def test_preserve_all_tensors_shares_nothing():
    with pytest.warns(UserWarning, match="preserve_all_tensors"):
        it = Interpreter(model_content=_chain_model(), experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    idx = _names(it)
    plan = it.get_arena_plan()["tensors"]
    assert len({plan[idx[n]]["offset"] for n in "abcd"}) == 4
