"""Candidate samplers (uniform, log-uniform, learned and fixed unigram, all) and compute_accidental_hits: the
negative-sampling ops behind nce_loss and sampled_softmax_loss.

Each sampler draws num_sampled class ids from [0, range_max) and reports, for the sampled and the true classes,
the expected number of times the class would be drawn: p * num_sampled, or 1 - (1 - p)^tries when sampling
`unique` ids needed more than num_sampled draws.
"""
from __future__ import annotations

import collections
from typing import Any, Callable, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, errors, ops, random_seed
from edgelite.framework.op_def_registry import register_op

_SAMPLER_ATTRS = {"num_true": None, "num_sampled": None, "unique": None, "range_max": None, "seed": 0, "seed2": 0}
_SAMPLER_OUTPUTS = ["sampled_candidates: int64", "true_expected_count: float", "sampled_expected_count: float"]

UniformCandidateSampler = collections.namedtuple(
    "UniformCandidateSampler", ["sampled_candidates", "true_expected_count", "sampled_expected_count"])
LogUniformCandidateSampler = collections.namedtuple("LogUniformCandidateSampler", UniformCandidateSampler._fields)
LearnedUnigramCandidateSampler = collections.namedtuple("LearnedUnigramCandidateSampler",
                                                        UniformCandidateSampler._fields)
FixedUnigramCandidateSampler = collections.namedtuple("FixedUnigramCandidateSampler",
                                                      UniformCandidateSampler._fields)
AllCandidateSampler = collections.namedtuple("AllCandidateSampler", UniformCandidateSampler._fields)
ComputeAccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _check_true_classes(op_type: str, true_classes: np.ndarray, num_true: int) -> None:
    if true_classes.ndim != 2:
        raise _invalid(f"{op_type}: true_classes must be a matrix, got shape {list(true_classes.shape)}")
    if true_classes.shape[1] != num_true:
        # TF's text names the columns found as "expected" and num_true as "was"; kept for matching messages
        raise _invalid(f"true_classes must have num_true columns, expected: {true_classes.shape[1]} was: "
                       f"{num_true}")


def _check_range(true_classes: np.ndarray, range_max: int) -> None:
    bad = (true_classes < 0) | (true_classes >= range_max)
    if bad.any():
        raise _invalid(f"`true_candidate` out of range [0, {range_max}), received {true_classes[bad][0]}")


def _draw_unique(draw: Callable[[int], np.ndarray], num_sampled: int) -> tuple:
    """(the first num_sampled distinct values of a stream of draws, the number of draws that took)."""
    stream = np.empty(0, np.int64)
    chunk = max(2 * num_sampled, 64)
    while True:
        stream = np.concatenate([stream, draw(chunk)])
        values, first = np.unique(stream, return_index=True)
        if values.size >= num_sampled:
            order = np.sort(first)[:num_sampled]
            return stream[order], int(order[-1]) + 1
        chunk *= 2


def _expected_count(p: np.ndarray, num_sampled: int, tries: int) -> np.ndarray:
    """Expected number of draws of a class of probability p among `tries` draws yielding num_sampled samples."""
    if tries == num_sampled:
        return p * num_sampled
    return -np.expm1(tries * np.log1p(-p))


def _sample(ctx: Any, true_classes: np.ndarray, probability: Callable[[np.ndarray], np.ndarray],
            draw: Callable[[int], np.ndarray], range_max: int) -> tuple:
    """The three sampler outputs for a sampler given its probability and draw functions."""
    a = ctx.attrs
    op_type = ctx.op.type
    _check_true_classes(op_type, true_classes, a["num_true"])
    num_sampled, unique = int(a["num_sampled"]), bool(a["unique"])
    if unique and num_sampled > range_max:
        raise _invalid("Sampler's range is too small.")
    _check_range(true_classes, range_max)
    if unique:
        sampled, tries = _draw_unique(draw, num_sampled)
    else:
        sampled, tries = draw(num_sampled).astype(np.int64), num_sampled
    true_count = _expected_count(probability(true_classes), num_sampled, tries)
    sampled_count = _expected_count(probability(sampled), num_sampled, tries)
    return sampled, true_count.astype(np.float32), sampled_count.astype(np.float32)


def _uniform_kernel(ctx: Any, true_classes: np.ndarray) -> tuple:
    n = int(ctx.attrs["range_max"])
    return _sample(ctx, true_classes, lambda v: np.full(np.shape(v), 1.0 / n),
                   lambda k: ctx.rng.integers(0, n, size=k), n)


def _log_uniform_kernel(ctx: Any, true_classes: np.ndarray) -> tuple:
    n = int(ctx.attrs["range_max"])
    log_range = np.log(n + 1.0)

    def draw(k: int) -> np.ndarray:
        # exp(u * log(n + 1)) - 1 is log-uniform over [0, n); the modulo guards against rounding up to n
        return (np.exp(ctx.rng.random(k) * log_range).astype(np.int64) - 1) % n

    return _sample(ctx, true_classes, lambda v: np.log((v + 2.0) / (v + 1.0)) / log_range, draw, n)


def _weighted(ctx: Any, true_classes: np.ndarray, weights: np.ndarray) -> tuple:
    """Sampling in proportion to the given per-class weights."""
    total = float(weights.sum())
    p = weights / total
    return _sample(ctx, true_classes, lambda v: p[v],
                   lambda k: ctx.rng.choice(weights.size, size=k, p=p).astype(np.int64), weights.size)


def _learned_unigram_kernel(ctx: Any, true_classes: np.ndarray) -> tuple:
    n = int(ctx.attrs["range_max"])
    key = ("learned_unigram_sampler", ctx.op.name)
    counts = ctx.state.op_state.get(key)
    if counts is None:
        # every class starts with a count of one; each run then counts the true classes it was given
        counts = ctx.state.op_state[key] = np.ones(n, np.float64)
    out = _weighted(ctx, true_classes, counts.copy())
    np.add.at(counts, true_classes.reshape(-1), 1.0)
    return out


def _read_vocab_counts(path: str) -> list:
    """The last comma-separated field of each line of a vocabulary file, as the class weight."""
    with open(path, encoding="utf-8") as f:
        return [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]


def _fixed_unigram_weights(attrs: dict) -> np.ndarray:
    """Weights of the ids of this shard: reserved ids weigh 0, the others unigram^distortion."""
    reserved, shards, shard = int(attrs["num_reserved_ids"]), int(attrs["num_shards"]), int(attrs["shard"])
    path = attrs["vocab_file"]
    path = path.decode() if isinstance(path, bytes) else path
    unigrams = _read_vocab_counts(path) if path else [float(u) for u in attrs["unigrams"]]
    weights = np.concatenate([np.zeros(reserved), np.power(np.asarray(unigrams, np.float64), attrs["distortion"])])
    return weights[np.arange(weights.size) % shards == shard]


def _fixed_unigram_kernel(ctx: Any, true_classes: np.ndarray) -> tuple:
    weights = _fixed_unigram_weights(ctx.attrs)
    if weights.size != int(ctx.attrs["range_max"]):
        raise _invalid(f"range is {ctx.attrs['range_max']} must be equal to weights size  {weights.size}")
    return _weighted(ctx, true_classes, weights)


def _all_kernel(ctx: Any, true_classes: np.ndarray) -> tuple:
    _check_true_classes(ctx.op.type, true_classes, ctx.attrs["num_true"])
    n = int(ctx.attrs["num_sampled"])
    _check_range(true_classes, n)
    return (np.arange(n, dtype=np.int64), np.ones(true_classes.shape, np.float32), np.ones(n, np.float32))


def _sampler_shape(op: Any) -> list:
    tc = op.inputs[0].shape
    if tc.ndims is not None and tc.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {tc.ndims} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {tc}.")
    n = op.get_attr("num_sampled")
    rows = tc[0] if tc.ndims is not None else None
    return [[n], [rows, op.get_attr("num_true")], [n]]


_FIXED_ATTRS = dict(_SAMPLER_ATTRS, vocab_file="", distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0,
                    unigrams=[])
for _op_type, _kernel, _attrs in (
        ("UniformCandidateSampler", _uniform_kernel, _SAMPLER_ATTRS),
        ("LogUniformCandidateSampler", _log_uniform_kernel, _SAMPLER_ATTRS),
        ("LearnedUnigramCandidateSampler", _learned_unigram_kernel, _SAMPLER_ATTRS),
        ("FixedUnigramCandidateSampler", _fixed_unigram_kernel, _FIXED_ATTRS),
        ("AllCandidateSampler", _all_kernel, {k: v for k, v in _SAMPLER_ATTRS.items() if k != "range_max"})):
    register_op(_op_type, inputs=["true_classes: int64"], outputs=_SAMPLER_OUTPUTS, attrs=_attrs, kernel=_kernel,
                shape_fn=_sampler_shape, stateful=True)
    ops.NoGradient(_op_type)


def _accidental_hits_kernel(ctx: Any, true_classes: np.ndarray, sampled: np.ndarray) -> tuple:
    num_true = ctx.attrs["num_true"]
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise _invalid(f"true_classes must be a matrix with num_true={num_true} columns, got shape "
                       f"{list(true_classes.shape)}")
    if sampled.ndim != 1:
        raise _invalid(f"sampled_candidates must be a vector, got shape {list(sampled.shape)}")
    # a sampled id that repeats is reported at its last position
    position = {int(v): i for i, v in enumerate(sampled)}
    rows, cols = [], []
    for (r, _), v in np.ndenumerate(true_classes):
        if int(v) in position:
            rows.append(r)
            cols.append(position[int(v)])
    n = len(rows)
    return (np.asarray(rows, np.int32), np.asarray(cols, np.int64),
            np.full(n, -np.finfo(np.float32).max, np.float32))


register_op("ComputeAccidentalHits", inputs=["true_classes: int64", "sampled_candidates: int64"],
            outputs=["indices: int32", "ids: int64", "weights: float"],
            attrs={"num_true": None, "seed": 0, "seed2": 0}, kernel=_accidental_hits_kernel,
            shape_fn=lambda op: [[None], [None], [None]])
ops.NoGradient("ComputeAccidentalHits")


def _seeds(seed: Optional[int]) -> dict:
    s1, s2 = random_seed.get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


def _sampler(op_type: str, result: Any, true_classes: Any, attrs: dict, seed: Optional[int],
             name: Optional[str]) -> Any:
    true_classes = ops.convert_to_tensor(true_classes, name="true_classes")
    if true_classes.dtype != dtypes.int64:
        raise TypeError(f"Input 'true_classes' of '{op_type}' Op has type {true_classes.dtype.name} that does not "
                        f"match expected type of int64.")
    return result(*ops.apply_op(op_type, [true_classes], dict(attrs, **_seeds(seed)), name=name))


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """num_sampled classes drawn uniformly from [0, range_max), with their expected counts."""
    return _sampler("UniformCandidateSampler", UniformCandidateSampler, true_classes,
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max},
                    seed, name)


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                  range_max: int, seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """Classes drawn with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipfian vocabularies sorted by
    frequency)."""
    return _sampler("LogUniformCandidateSampler", LogUniformCandidateSampler, true_classes,
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max},
                    seed, name)


def learned_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                      range_max: int, seed: Optional[int] = None,
                                      name: Optional[str] = None) -> tuple:
    """Classes drawn in proportion to how often each appeared as a true class in earlier runs (plus one)."""
    return _sampler("LearnedUnigramCandidateSampler", LearnedUnigramCandidateSampler, true_classes,
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max},
                    seed, name)


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                    range_max: int, vocab_file: str = "", distortion: float = 1.0,
                                    num_reserved_ids: int = 0, num_shards: int = 1, shard: int = 0,
                                    unigrams: Sequence[float] = (), seed: Optional[int] = None,
                                    name: Optional[str] = None) -> tuple:
    """Classes drawn in proportion to given counts (a list or a vocabulary file) raised to `distortion`."""
    attrs = {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max,
             "vocab_file": vocab_file, "distortion": float(distortion), "num_reserved_ids": num_reserved_ids,
             "num_shards": num_shards, "shard": shard, "unigrams": [float(u) for u in unigrams]}
    return _sampler("FixedUnigramCandidateSampler", FixedUnigramCandidateSampler, true_classes, attrs, seed, name)


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                          seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """Every class 0..num_sampled-1, each with expected count 1 (exact softmax through the sampled path)."""
    return _sampler("AllCandidateSampler", AllCandidateSampler, true_classes,
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique}, seed, name)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int, seed: Optional[int] = None,
                            name: Optional[str] = None) -> tuple:
    """(indices, ids, weights) of sampled candidates equal to a row's true class, weighted -FLT_MAX so that
    adding them to the sampled logits removes those hits."""
    true_classes = ops.convert_to_tensor(true_classes, name="true_classes")
    return ComputeAccidentalHits(*ops.apply_op("ComputeAccidentalHits", [true_classes, sampled_candidates],
                                               dict({"num_true": num_true}, **_seeds(seed)), name=name))
