"""The numpy side of RaggedFeature parsing: each ragged key's values over a batch of records, with the row
splits that say which values belong to which record (and, in feature lists, to which step)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .example_parser import _NP, _Where, _typed


@dataclass(frozen=True)
class RaggedSpec:
    """One feature key parsed as ragged: its value type ("int64", "float", "string") and row-splits type."""

    key: str
    dtype: str
    splits_dtype: str  # "int32" or "int64"


def _flat(per: list, dtype: str) -> np.ndarray:
    values = np.empty(sum(len(v) for v in per), _NP[dtype])
    if len(values):
        values[:] = [x for v in per for x in v] if dtype == "string" else np.concatenate(
            [np.asarray(v, _NP[dtype]) for v in per])
    return values


def _splits(lengths: list, splits_dtype: str) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(splits_dtype)


def ragged_of_features(spec: RaggedSpec, feats: list, where: _Where) -> tuple:
    """(values, row_splits [batch + 1]) of one key over records' feature maps (a missing feature is empty)."""
    per = []
    for i, fmap in enumerate(feats):
        f = fmap.get(spec.key)
        per.append([] if f is None else _typed(f, spec.dtype, where, spec.key, i, varlen=True))
    return _flat(per, spec.dtype), _splits([len(v) for v in per], spec.splits_dtype)


def ragged_of_feature_lists(spec: RaggedSpec, lists: list, where: _Where) -> tuple:
    """(values, outer splits [batch + 1] over steps, inner splits [steps + 1] over values) of a feature list."""
    per_step, steps = [], []
    for i, fl in enumerate(lists):
        entry = fl.get(spec.key)
        step_values = [] if entry is None else [_typed(f, spec.dtype, where, spec.key, i, varlen=True)
                                                for f in entry.feature]
        per_step.extend(step_values)
        steps.append(len(step_values))
    return (_flat(per_step, spec.dtype), _splits(steps, spec.splits_dtype),
            _splits([len(v) for v in per_step], spec.splits_dtype))


def parse_ragged(specs: Any, feats: list, where: _Where) -> list:
    """[values of each spec] + [row splits of each spec], the order of the parse op's ragged outputs."""
    pairs = [ragged_of_features(s, feats, where) for s in specs]
    return [p[0] for p in pairs] + [p[1] for p in pairs]


def parse_ragged_lists(specs: Any, lists: list, where: _Where) -> list:
    """[values] + [outer splits] + [inner splits] of each feature-list spec."""
    triples = [ragged_of_feature_lists(s, lists, where) for s in specs]
    return [t[k] for k in range(3) for t in triples]
