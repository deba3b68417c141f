"""RaggedTensor (construction, conversion, accessors, feeds, validation errors) and RaggedFeature parsing against
TensorFlow's records."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from . import ragged_cases, ragged_codec, ragged_data_cases, ragged_parse_cases

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_ragged.json").read_text())


def _comparable(result: dict) -> dict:
    if "message" in result:
        result = dict(result, message=ragged_codec.mask_names(result["message"]))
    return result


@pytest.mark.parametrize("name,fn", ragged_cases.CASES, ids=[c[0] for c in ragged_cases.CASES])
def test_ragged_matches_tensorflow(name, fn):
    assert _comparable(ragged_codec.run(tf, fn)) == _comparable(RECORDED["ragged"][name])


def test_constant_value_matches_tensorflow():
    assert ragged_cases.constant_value_cases(tf) == RECORDED["constant_value"]


@pytest.mark.parametrize("name,fn", ragged_parse_cases.CASES, ids=[c[0] for c in ragged_parse_cases.CASES])
def test_ragged_feature_parsing_matches_tensorflow(name, fn):
    assert _comparable(ragged_codec.run(tf, fn)) == _comparable(RECORDED["parse"][name])


def test_ragged_feature_spec_matches_tensorflow():
    got = ragged_parse_cases.spec_facts(tf)
    assert ragged_codec.mask_names(got.pop("repr")) == ragged_codec.mask_names(RECORDED["spec"]["repr"])
    assert got == {k: v for k, v in RECORDED["spec"].items() if k != "repr"}


@pytest.mark.parametrize("name,fn", ragged_data_cases.CASES, ids=[c[0] for c in ragged_data_cases.CASES])
def test_ragged_datasets_match_tensorflow(name, fn):
    got, want = ragged_data_cases.run(tf, fn), RECORDED["datasets"][name]
    assert want.pop("spec") == got.pop("spec")
    assert got == want
