"""BIDIRECTIONAL_SEQUENCE_RNN (float and hybrid) and BIDIRECTIONAL_SEQUENCE_LSTM (float) against
LiteRT's kernels: time- and batch-major, separate and merged outputs, the auxiliary input in both
of TFLite's uses (cross-linked weights, backward-cell input), and every optional LSTM form. Each case invokes
several times on one interpreter and again after reset_all_variables(), so both cells' states are
compared too."""
from __future__ import annotations

import flatbuffers
import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from covlib import check_against_litert, ours_cls
from seq_models import bidi_lstm_float, bidi_rnn_float


def steps_with_reset(rng, shapes, n=3):
    xs = [[rng.uniform(-1, 1, s).astype(np.float32) for s in shapes] for _ in range(n)]
    return xs + ["reset"] + xs


RNN_FORMS = {
    "batch_major": {},
    "time_major": {"time_major": True},
    "merged": {"merge": True, "batch": 3},
    "time_major_merged_relu": {"time_major": True, "merge": True, "activation": "RELU"},
    "cross_links": {"aux": "cross"},
    "time_major_cross_links_merged": {"time_major": True, "aux": "cross", "merge": True},
    "backward_reads_aux": {"aux": "bw", "time_major": True},
    "batch_major_aux_without_weights": {"aux": "bw", "activation": "NONE"},
}


@pytest.mark.parametrize("form", sorted(RNN_FORMS))
def test_bidirectional_rnn(litert, form):
    rng = np.random.default_rng([21, len(form)])
    model, shapes, _ = bidi_rnn_float(rng, **RNN_FORMS[form])
    check_against_litert(litert, model, steps_with_reset(rng, shapes), f"bidirectional RNN {form}")


HYBRID_RNN_FORMS = {
    "batch_major": {},
    "batch_major_merged_asymmetric": {"merge": True, "asymmetric": True, "batch": 3},
    "cross_links_asymmetric": {"aux": "cross", "asymmetric": True},
    "time_major": {"time_major": True},
    "time_major_backward_reads_aux_asymmetric": {"time_major": True, "aux": "bw", "asymmetric": True},
    "time_major_cross_links": {"time_major": True, "aux": "cross", "batch": 3, "time": 3},
}


@pytest.mark.parametrize("form", sorted(HYBRID_RNN_FORMS))
def test_bidirectional_rnn_hybrid(litert, form):
    """int8 weights; LiteRT's time-major hybrid kernel runs the sequence once per time step, and so
    does edgelite's. An all-zero input skips its product."""
    rng = np.random.default_rng([25, len(form)])
    model, shapes, _ = bidi_rnn_float(rng, hybrid=True, **HYBRID_RNN_FORMS[form])
    steps = steps_with_reset(rng, shapes)
    steps.insert(1, [np.zeros(s, np.float32) for s in shapes])
    check_against_litert(litert, model, steps, f"hybrid bidirectional RNN {form}", rel_tol=1e-4)


def test_bidirectional_rnn_hybrid_time_major_merged_matches_separate_outputs():
    """LiteRT crashes on this form; edgelite's merged output is its two separate outputs side by side."""
    x = np.random.default_rng(26).uniform(-1, 1, [4, 2, 3]).astype(np.float32)
    outs = []
    for merge in (False, True):
        model, _, _ = bidi_rnn_float(np.random.default_rng(27), hybrid=True, time_major=True, merge=merge)
        it = ours_cls()(model_content=model)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        outs.append([it.get_tensor(d["index"]) for d in it.get_output_details()])
    np.testing.assert_array_equal(outs[1][0], np.concatenate(outs[0], axis=2))


LSTM_FORMS = {
    "plain": {},
    "time_major": {"time_major": True, "batch": 3},
    "cifg_peephole": {"cifg": True, "peephole": True},
    "projection_clipped": {"projection": True, "cell_clip": 0.6, "proj_clip": 0.4},
    "merged_time_major": {"merge": True, "time_major": True, "peephole": True},
    "merged_batch_of_one": {"merge": True, "batch": 1, "time": 5},
    "cross_links": {"aux": "cross", "peephole": True},
    "cross_links_cifg_time_major": {"aux": "cross", "cifg": True, "time_major": True},
    "backward_reads_aux": {"aux": "bw", "projection": True},
    "backward_reads_aux_time_major": {"aux": "bw", "time_major": True, "merge": True},
}


@pytest.mark.parametrize("form", sorted(LSTM_FORMS))
def test_bidirectional_lstm(litert, form):
    rng = np.random.default_rng([22, len(form)])
    model, shapes, _ = bidi_lstm_float(rng, **LSTM_FORMS[form])
    check_against_litert(litert, model, steps_with_reset(rng, shapes), f"bidirectional LSTM {form}")


def test_backward_cell_runs_in_reverse():
    """Zeroing the last time step changes only the backward units of earlier steps, and the
    forward units of that step alone."""
    rng = np.random.default_rng(23)
    model, shapes, _ = bidi_rnn_float(rng, merge=True, batch=1, time=5, fw_units=3, bw_units=2)
    x = rng.uniform(-1, 1, shapes[0]).astype(np.float32)
    y = x.copy()
    y[:, -1] = 0
    outs = []
    for v in (x, y):
        it = ours_cls()(model_content=model)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], v)
        it.invoke()
        outs.append(it.get_tensor(it.get_output_details()[0]["index"]))
    a, b = outs
    np.testing.assert_array_equal(a[:, :-1, :3], b[:, :-1, :3])
    assert not np.allclose(a[:, :-1, 3:], b[:, :-1, 3:])


@pytest.mark.parametrize("op, builder", [("RNN", bidi_rnn_float), ("LSTM", bidi_lstm_float)])
def test_wrong_output_count_is_refused_like_litert(litert, op, builder):
    """merge_outputs declares one output; a model listing two is refused at prepare by both."""
    model, _, _ = builder(np.random.default_rng(24), merge=False)
    m = schema.ModelT.InitFromPackedBuf(model, 0)
    m.subgraphs[0].operators[0].builtinOptions.mergeOutputs = True
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    bad = bytes(b.Output())
    for cls in (ours_cls(), litert.Interpreter):
        with pytest.raises(RuntimeError, match="failed to prepare"):
            cls(model_content=bad).allocate_tensors()
