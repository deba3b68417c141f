"""Randomly damaged option bytes (flipped bytes, truncations, garbage) on every signal op: the
interpreter either runs the model or raises a RuntimeError naming the op from allocate_tensors or
invoke, never reads outside the options or its tensors."""
from __future__ import annotations

import numpy as np
import pytest

from signal_ops.signal_models import all_cases, flex, op_model

CASES = all_cases(seed=5)
MUTANTS_PER_CASE = 30


def _mutate(data: bytes, rng: np.random.Generator) -> bytes:
    b = bytearray(data)
    kind = int(rng.integers(3))
    if kind == 0 and len(b) > 1:
        return bytes(b[: int(rng.integers(1, len(b)))])
    if kind == 1:
        return bytes(rng.integers(0, 256, size=int(rng.integers(0, 64)), dtype=np.uint8))
    for _ in range(int(rng.integers(1, 4))):
        if b:
            b[int(rng.integers(len(b)))] = int(rng.integers(256))
    return bytes(b)


def _options_offset(model: bytes, options: bytes) -> int:
    at = model.find(options)
    assert at >= 0 and model.find(options, at + 1) < 0
    return at


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_damaged_options_run_or_raise(case):
    from edgelite_runtime import Interpreter

    rng = np.random.default_rng([11, len(case.name)])
    options = flex(case.options)
    at = _options_offset(case.model, options)
    op = _op_name(case.model)
    outcomes = {"ran": 0, "raised": 0}
    for _ in range(MUTANTS_PER_CASE):
        damaged = _mutate(options, rng)
        if len(damaged) == len(options):
            model = case.model[:at] + damaged + case.model[at + len(options):]
        else:
            model = _rebuilt(case, damaged)
        try:
            it = Interpreter(model_content=model)
            it.allocate_tensors()
            for det, v in zip(it.get_input_details(), case.inputs[0]):
                it.set_tensor(det["index"], v)
            it.invoke()
            outcomes["ran"] += 1
        except RuntimeError as e:
            outcomes["raised"] += 1
            assert op in str(e), str(e)
    assert sum(outcomes.values()) == MUTANTS_PER_CASE


def _op_name(model: bytes) -> str:
    from ai_edge_litert import schema_py_generated as schema

    return schema.Model.GetRootAs(model, 0).OperatorCodes(0).CustomCode().decode()


def _rebuilt(case, options: bytes) -> bytes:
    """The case's model with other option bytes (of another length), rebuilt from its schema."""
    from ai_edge_litert import schema_py_generated as schema
    import flatbuffers

    m = schema.ModelT.InitFromObj(schema.Model.GetRootAs(case.model, 0))
    m.subgraphs[0].operators[0].customOptions = list(options)
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())
