"""tf.keras.utils: to_categorical, normalize, pad_sequences, Sequence (batches for fit and friends), the
custom-object registry (get_custom_objects, custom_object_scope, CustomObjectScope), get_file, Progbar and the
image file helpers (load_img, img_to_array, array_to_img, save_img)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import data_utils  # noqa: F401
from .custom_objects import CustomObjectScope, custom_object_scope, get_custom_objects  # noqa: F401
from .data_utils import get_file  # noqa: F401
from .preprocessing.image import array_to_img, img_to_array, load_img, save_img  # noqa: F401
from .preprocessing.sequence import pad_sequences  # noqa: F401
from .progbar import Progbar  # noqa: F401
from .sequence_data import Sequence  # noqa: F401


def to_categorical(y: Any, num_classes: Optional[int] = None, dtype: str = "float32") -> np.ndarray:
    """One-hot rows for integer class ids (classes 0 .. max(y) unless num_classes is given)."""
    y = np.array(y, dtype="int")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.ravel()
    if num_classes is None:
        num_classes = int(np.max(y)) + 1
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return categorical.reshape(shape + (num_classes,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> np.ndarray:
    """x divided by its `order`-norm along `axis` (zero norms left as 1)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
