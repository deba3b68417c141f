"""`edgelite ops`: the op list of models and the op-selection header of a freestanding build, against the
operator histograms the realworld set's meta.json records for each model."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from edgelite.cli.main import main

REALWORLD = Path(__file__).resolve().parents[2] / ".." / "shared" / "realworld"
CASES = ["tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model", "tflm_keyword_scrambled"]
pytestmark = pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not beside the project")


def _histogram_ops(case: str) -> set:
    return set(json.loads((REALWORLD / case / "meta.json").read_text())["ops_histogram"])


@pytest.mark.parametrize("case", CASES[:3])
def test_ops_lists_the_models_operators(case, capsys):
    assert main(["ops", str(REALWORLD / case / "model.tflite")]) == 0
    assert set(capsys.readouterr().out.split()) == _histogram_ops(case)


def test_unused_operator_table_entries_are_kept(capsys):
    """keyword_scrambled's operator table names DEQUANTIZE, which no operator uses; the interpreter resolves every
    entry (as TFLite does), so the selection must keep it."""
    case = "tflm_keyword_scrambled"
    assert main(["ops", str(REALWORLD / case / "model.tflite")]) == 0
    listed = set(capsys.readouterr().out.split())
    assert listed - _histogram_ops(case) == {"DEQUANTIZE"} and _histogram_ops(case) <= listed


def test_header_keeps_the_union_of_several_models(tmp_path, capsys):
    header = tmp_path / "ops.h"
    models = [str(REALWORLD / case / "model.tflite") for case in CASES[:3]]
    assert main(["ops", *models, "--header", str(header)]) == 0
    kept = {line.split()[1][len("EL_KEEP_EL_OP_"):] for line in header.read_text().splitlines()
            if line.startswith("#define EL_KEEP_EL_OP_")}
    assert kept == set().union(*(_histogram_ops(case) for case in CASES[:3]))
    assert all(line.endswith(" EL_KEPT_PROBE") for line in header.read_text().splitlines() if line.startswith("#define"))


def test_not_a_model_is_one_line_error(tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a flatbuffer")
    assert main(["ops", str(bad)]) != 0
    err = capsys.readouterr().err
    assert "notes.txt" in err and "TFL3" in err
