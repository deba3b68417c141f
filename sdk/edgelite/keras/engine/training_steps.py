"""The step-based Keras loops (TF1 Keras's generator loop): fit/evaluate/predict on Python generators,
keras.utils.Sequence objects and tf.data Datasets, and fit_generator / evaluate_generator / predict_generator.

Each step draws one batch and runs train_on_batch / test_on_batch (metrics kept across the epoch); metrics are the
running values after the last step. The loss of a training epoch is weighted as Keras's BaseLogger weighs it: by
batch size for generators and Sequences, equally per step for Datasets (whose steps count as size 1); the loss of
evaluation (and validation) is the plain mean over steps, as Keras's step aggregator computes it.
"""
from __future__ import annotations

import collections.abc
import time
from typing import Any, Iterator, List, Optional

import numpy as np

from .. import callbacks as cbks
from . import batch_sources as src


def should_validate(validation_freq: Any, epoch: int) -> bool:
    """Whether epoch (0-based) validates: every validation_freq-th epoch, or the 1-based epochs listed."""
    if isinstance(validation_freq, int):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return (epoch + 1) % validation_freq == 0
    if not isinstance(validation_freq, collections.abc.Container):
        raise ValueError("`validation_freq` must be an Integer or `collections.abc.Container` (e.g. list, tuple, "
                         f"etc.). Received: validation_freq={validation_freq} of the type {type(validation_freq)}.")
    return epoch + 1 in validation_freq


def _steps_name(mode: str) -> str:
    return "steps_per_epoch" if mode == "train" else "steps"


class StepLoopMixin:
    """fit/evaluate/predict for batch sources (mixed into Model with TrainingMixin)."""

    # ---- sources ---------------------------------------------------------------------------------------
    def _source(self, data: Any, steps: Optional[int], shuffle: bool, workers: int, mode: str,
                steps_name: Optional[str] = None) -> tuple:
        """(batch iterator, steps or None, whether to restart the source every epoch)."""
        steps_name = steps_name or _steps_name(mode)
        if src.is_dataset(data):
            if steps is None and src.repeats_forever(data):
                raise ValueError(f"When passing an infinitely repeating dataset, you must specify the `{steps_name}` "
                                 "argument.")
            return src.dataset_batches(data), steps, steps is None
        if isinstance(data, src.Sequence):
            return src.sequence_batches(data, shuffle, workers), len(data) if steps is None else steps, False
        if steps is None:
            raise ValueError(f"Please specify the number of steps via the `{steps_name}` argument.")
        return iter(data), steps, False

    @staticmethod
    def _refuse_batch_arguments(x: Any, y: Any, batch_size: Any) -> None:
        if y is not None and src.is_dataset(x):
            raise ValueError(f"You passed a dataset or dataset iterator ({x}) as input `x` to your model. In that "
                             "case, you should not specify a target (`y`) argument, since the dataset or dataset "
                             f"iterator generates both input data and target data. Received: {y}")
        if y is not None:
            raise ValueError("`y` argument is not supported when data isa generator or Sequence instance. Instead "
                             "pass targets as the second element of the generator.")
        if batch_size is not None:
            raise ValueError("The `batch_size` argument must not be specified for the given input type. Received "
                             f"input: {x}, batch_size: {batch_size}")

    def _fit_callbacks(self, callbacks: Any, do_validation: bool, **params: Any) -> tuple:
        """(History, CallbackList of the user's callbacks and the History) set up for a fit; clears stop_training."""
        history = cbks.History()
        # History comes last so it records what earlier callbacks add to the logs (LearningRateScheduler's lr)
        callback_list = cbks.CallbackList(list(callbacks or []) + [history])
        out_names = list(self.metrics_names) + (["val_" + m for m in self.metrics_names] if do_validation else [])
        for cb in callback_list.callbacks:
            cb.set_model(self)
            cb.set_params(dict(params, do_validation=do_validation, metrics=out_names))
        self.stop_training = False
        return history, callback_list

    # ---- one pass --------------------------------------------------------------------------------------
    def _run_steps(self, source: Iterator[Any], steps: Optional[int], mode: str, class_weight: Any = None,
                   callback_list: Any = None, unit_steps: bool = False) -> tuple:
        """Runs up to `steps` batches (all of them when None); returns (results, steps run, last batch size).
        A training loss is weighted by batch size (by 1 per step with `unit_steps`), an evaluation loss is not."""
        self.reset_metrics()
        total_loss, seen = 0.0, 0
        last: Optional[List[float]] = None
        step, size = 0, None
        while steps is None or step < steps:
            batch = src.next_batch(source)
            if batch is None:
                if steps is not None:
                    print(f"WARNING: Your input ran out of data; interrupting training. Make sure that your dataset "
                          f"or generator can generate at least `steps * epochs` batches (in this case, {steps} "
                          "batches).")
                    self.stop_training = True
                break
            size = src.batch_size_of(batch)
            if callback_list is not None:
                callback_list.on_batch_begin(step, {"batch": step, "size": size})
            if mode == "train":
                outs = self.train_on_batch(*batch, class_weight=class_weight, reset_metrics=False)
            else:
                outs = self.test_on_batch(*batch, reset_metrics=False)
            last = [float(v) for v in (outs if isinstance(outs, list) else [outs])]
            weight = size if mode == "train" and not unit_steps else 1
            total_loss, seen = total_loss + last[0] * weight, seen + weight
            if callback_list is not None:
                callback_list.on_batch_end(step, dict(zip(self.metrics_names, last), batch=step, size=size))
            step += 1
            if getattr(self, "stop_training", False) and mode == "train":
                break
        if last is None:
            return [], step, size
        if mode != "train" and steps is not None:
            seen = steps
        return [total_loss / seen] + last[1:], step, size

    # ---- fit -------------------------------------------------------------------------------------------
    def _fit_steps(self, data: Any, steps_per_epoch: Optional[int], epochs: int, verbose: int, callbacks: Any,
                   validation_data: Any, validation_steps: Optional[int], class_weight: Any, shuffle: bool,
                   initial_epoch: int, workers: int, unit_steps: bool = False,
                   validation_freq: Any = 1) -> cbks.History:
        self._require_compiled()
        source, steps, restart = self._source(data, steps_per_epoch, shuffle, workers, "train")
        if validation_data is not None and (src.is_generator_or_sequence(validation_data) or
                                            src.is_dataset(validation_data)):
            if not isinstance(validation_data, src.Sequence) and not src.is_dataset(validation_data) \
                    and not validation_steps:
                raise ValueError("Please specify the `validation_steps` argument.")
        history, callback_list = self._fit_callbacks(callbacks, validation_data is not None, batch_size=None,
                                                     epochs=epochs, steps=steps, samples=steps, verbose=verbose)
        callback_list.on_train_begin({})
        for epoch in range(initial_epoch, epochs):
            if self.stop_training:
                break
            callback_list.on_epoch_begin(epoch, {})
            started = time.time()
            results, done, size = self._run_steps(source, steps, "train", class_weight, callback_list,
                                                  unit_steps=src.is_dataset(data) or unit_steps)
            logs = dict(zip(self.metrics_names, results))
            if validation_data is not None and not self.stop_training and should_validate(validation_freq, epoch):
                val = self._evaluate_steps(validation_data, validation_steps, size, workers, "validation_steps")
                logs.update(("val_" + k, v) for k, v in zip(self.metrics_names, val))
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}")
                metrics = "".join(f" - {k}: {v:.4f}" for k, v in logs.items())
                print(f"{done}/{steps or done} - {time.time() - started:.0f}s{metrics}")
            callback_list.on_epoch_end(epoch, logs)
            if restart and epoch < epochs - 1:
                source = src.dataset_batches(data)
        callback_list.on_train_end({})
        return history

    def fit_generator(self, generator: Any, steps_per_epoch: Optional[int] = None, epochs: int = 1,
                      verbose: int = 1, callbacks: Any = None, validation_data: Any = None,
                      validation_steps: Optional[int] = None, validation_freq: int = 1, class_weight: Any = None,
                      max_queue_size: int = 10, workers: int = 1, use_multiprocessing: bool = False,
                      shuffle: bool = True, initial_epoch: int = 0) -> cbks.History:
        """fit on batches from a generator, Sequence or Dataset (deprecated alias of fit in Keras)."""
        return self._fit_steps(generator, steps_per_epoch, epochs, verbose, callbacks, validation_data,
                               validation_steps, class_weight, shuffle, initial_epoch, workers,
                               validation_freq=validation_freq)

    # ---- evaluate / predict ----------------------------------------------------------------------------
    def _evaluate_steps(self, data: Any, steps: Optional[int], batch_size: Optional[int] = None, workers: int = 1,
                        steps_name: str = "steps") -> List[float]:
        """Loss and metrics over a batch source, or over (x, y[, weights]) arrays in batches of batch_size."""
        self._require_compiled()
        if not (src.is_generator_or_sequence(data) or src.is_dataset(data)):
            arrays = tuple(data)
            n = src.batch_size_of(arrays)
            size = batch_size or 32
            source, steps = src.array_batches(arrays, size), -(-n // size) if steps is None else steps
        else:
            source, steps, _ = self._source(data, steps, False, workers, "test", steps_name)
        results, _, _ = self._run_steps(source, steps, "test")
        return results

    def evaluate_generator(self, generator: Any, steps: Optional[int] = None, callbacks: Any = None,
                           max_queue_size: int = 10, workers: int = 1, use_multiprocessing: bool = False,
                           verbose: int = 0) -> Any:
        """evaluate on batches from a generator, Sequence or Dataset: the loss (and metrics)."""
        values = [np.float32(v) for v in self._evaluate_steps(generator, steps, workers=workers)]
        return values[0] if len(values) == 1 else values

    def _predict_steps(self, data: Any, steps: Optional[int], workers: int = 1) -> Any:
        source, steps, _ = self._source(data, steps, False, workers, "predict")
        chunks, step = [], 0
        while steps is None or step < steps:
            batch = src.next_batch(source)
            if batch is None:
                break
            outs = self.predict_on_batch(batch[0])
            chunks.append(outs if isinstance(outs, list) else [outs])
            step += 1
        if not chunks:
            return []
        outs = [np.concatenate([c[i] for c in chunks]) for i in range(len(chunks[0]))]
        return outs[0] if len(outs) == 1 else outs

    def predict_generator(self, generator: Any, steps: Optional[int] = None, callbacks: Any = None,
                          max_queue_size: int = 10, workers: int = 1, use_multiprocessing: bool = False,
                          verbose: int = 0) -> Any:
        """Model outputs for the inputs of each batch of a generator, Sequence or Dataset, concatenated."""
        return self._predict_steps(generator, steps, workers)
