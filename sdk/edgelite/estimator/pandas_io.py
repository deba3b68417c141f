"""tf.estimator.inputs.pandas_input_fn: numpy_input_fn over a DataFrame's columns (pandas is an optional extra)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from .numpy_io import numpy_input_fn


def pandas_input_fn(x: Any, y: Any = None, batch_size: int = 128, num_epochs: Optional[int] = 1,
                    shuffle: Any = None, queue_capacity: int = 1000, num_threads: int = 1,
                    target_column: str = "target") -> Callable[[], Any]:
    """An input_fn returning ({column: batch}, labels) from DataFrame x and Series (or DataFrame) y, rows in
    index order; the same batching and arguments as numpy_input_fn."""
    try:
        import pandas as pd
    except ImportError:
        raise TypeError("pandas_input_fn should not be called without pandas installed") from None
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is recommended to set it as "
                         f"True for training); got {shuffle}")
    if y is not None:
        if target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame already has a column "
                             f"with that name: {x.columns}")
        if not np.array_equal(x.index, y.index):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\nIndex for y: {y.index}\n")
        labels = ({str(k): y[k].values for k in y.columns} if isinstance(y, pd.DataFrame) else y.values)
    else:
        labels = None
    features = {str(k): x[k].values for k in x.columns}
    return numpy_input_fn(features, labels, batch_size=batch_size, num_epochs=num_epochs, shuffle=shuffle,
                          queue_capacity=queue_capacity, num_threads=num_threads)
