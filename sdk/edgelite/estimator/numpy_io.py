"""tf.estimator.inputs.numpy_input_fn: an input_fn feeding numpy arrays (or dicts of them) in batches."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

_TARGET_KEY = "__target_key__"


def _as_dict(x: Any, what: str) -> dict:
    if isinstance(x, dict):
        return {k: np.asarray(v) for k, v in x.items()}
    return {what: np.asarray(x)}


def numpy_input_fn(x: Any, y: Any = None, batch_size: int = 128, num_epochs: Optional[int] = 1,
                   shuffle: Any = None, queue_capacity: int = 1000, num_threads: int = 1) -> Callable[[], Any]:
    """An input_fn returning (features, labels) batches of the arrays' rows: features a dict when x is one,
    else a tensor; num_epochs=None repeats forever; the last batch of an epoch may be smaller."""
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is recommended to set it as "
                         f"True for training); got {shuffle}")
    features = _as_dict(x, "__x__")
    if y is not None:
        targets = _as_dict(y, _TARGET_KEY)
        shared = set(features) & set(targets)
        if isinstance(y, dict) and shared:
            raise ValueError(f"{len(shared)} duplicate keys are found in both x and y: {sorted(shared)}")
    else:
        targets = {}
    lengths = {len(v) for v in list(features.values()) + list(targets.values())}
    if len(lengths) > 1:
        shapes = ", ".join(f"{k}: {v.shape}" for k, v in list(features.items()) + list(targets.items()))
        raise ValueError("Length of tensors in x and y is mismatched. All elements in x and y must have the same "
                         f"length.\n{shapes}")

    def input_fn() -> Any:
        from edgelite.data import Dataset

        dataset = Dataset.from_tensor_slices((features, targets) if targets else features)
        if shuffle:
            dataset = dataset.shuffle(max(queue_capacity, batch_size))
        dataset = dataset.repeat(num_epochs).batch(batch_size)
        batch = dataset.make_one_shot_iterator().get_next()
        feats, labels = batch if targets else (batch, None)
        feats = feats if isinstance(x, dict) else feats["__x__"]
        if labels is not None and not isinstance(y, dict):
            labels = labels[_TARGET_KEY]
        return feats, labels

    return input_fn
