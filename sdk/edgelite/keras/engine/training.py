"""compile / fit / evaluate / predict of a Keras model, run batch by batch in the Keras session (TF1 Keras loop).

fit shuffles sample indices with numpy's global RNG each epoch (as Keras does), runs one training step per batch
(learning phase fed as True) and reports each epoch's loss and metrics as the batch-size-weighted mean of the
per-batch values computed before each update.
"""
from __future__ import annotations

import itertools
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from edgelite.framework import ops
from edgelite.ops import array_ops, math_ops

from .. import backend, callbacks as cbks, losses as losses_mod, metrics as metrics_mod, optimizers
from . import batch_sources
from .base_layer import as_list
from .training_steps import StepLoopMixin, should_validate

_SAME_SHAPE_LOSSES = {"mean_squared_error", "binary_crossentropy", "categorical_crossentropy"}


def _loss_name(fn: Any) -> str:
    return getattr(fn, "__name__", None) or getattr(fn, "name", None) or type(fn).__name__


def _per_output(value: Any, names: List[str], what: str) -> list:
    """`value` spread over the outputs: one for all, a list in output order, or a dict by output name."""
    if isinstance(value, dict):
        unknown = [k for k in value if k not in names]
        if unknown:
            raise ValueError(f"Unknown entries in {what} dictionary: {unknown}. Only expected following keys: "
                             f"{names}")
        return [value.get(n) for n in names]
    if isinstance(value, (list, tuple)) and what != "metrics":
        if len(value) != len(names):
            raise ValueError(f"When passing a list as {what}, it should have one entry per model outputs. The model "
                             f"has {len(names)} outputs, but you passed {what}={value}")
        return list(value)
    return [value] * len(names)


class TrainingMixin(StepLoopMixin):
    """The training half of keras.Model (mixed into Model)."""

    # ---- compile ---------------------------------------------------------------------------------------
    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, metrics: Any = None, loss_weights: Any = None,
                sample_weight_mode: Any = None, weighted_metrics: Any = None, target_tensors: Any = None,
                **kwargs: Any) -> None:
        """Chooses the optimizer, the loss per output and the metrics; graph pieces are made when built."""
        if kwargs:
            raise TypeError(f"Invalid keyword argument(s) in `compile`: {set(kwargs)}")
        self.optimizer = optimizers.get(optimizer)
        self.loss = loss
        self._compile_args = dict(loss=loss, metrics=metrics, loss_weights=loss_weights)
        self._is_compiled = True
        self._train_fn = self._test_fn = None
        if self.built:
            self._build_compiled()

    def _build_compiled(self) -> None:
        names = self.output_names
        args = self._compile_args
        loss_fns = [losses_mod.get(fn) for fn in _per_output(args["loss"], names, "loss")]
        if any(fn is None for fn in loss_fns):
            raise ValueError("No loss found. You may have forgotten to provide a `loss` argument in the `compile()` "
                             "method.")
        weights = _per_output(args["loss_weights"], names, "loss_weights") if args["loss_weights"] is not None \
            else [1.0] * len(names)
        metric_lists = args["metrics"]
        if isinstance(metric_lists, dict):
            metric_lists = [as_list(metric_lists.get(n)) for n in names]
        else:
            metric_lists = [as_list(metric_lists)] * len(names)
        self._loss_fns = loss_fns
        self.targets, self.sample_weights, output_losses = [], [], []
        self.metrics_names, metric_tensors = ["loss"], []
        for output, name, fn, weight in zip(self.outputs, names, loss_fns, weights):
            ndim = output.shape.ndims
            target = backend.placeholder(shape=[None] * ndim, dtype=output.dtype.base_dtype, name=name + "_target")
            sample_weight = backend.placeholder(shape=[None], name=name + "_sample_weights")
            self.targets.append(target)
            self.sample_weights.append(sample_weight)
            with ops.name_scope("loss"), ops.name_scope(name + "_loss"):
                mask = getattr(output, "_keras_mask", None)
                if isinstance(fn, losses_mod.Loss):
                    weights = sample_weight
                    if mask is not None:
                        weights = _fold_mask(array_ops.expand_dims(sample_weight, -1), mask,
                                             fn.reduction in ("auto", "sum_over_batch_size"))
                    out_loss = fn(target, output, sample_weight=weights)
                else:
                    per_sample = fn(target, output)
                    weights = losses_mod.per_sample_weights(sample_weight, per_sample)
                    if mask is not None:
                        weights = _fold_mask(weights, mask, True)
                    count = math_ops.cast(array_ops.size(per_sample), per_sample.dtype)
                    out_loss = math_ops.div_no_nan(math_ops.reduce_sum(per_sample * weights), count)
            output_losses.append(out_loss * weight if weight != 1.0 else out_loss)
        with ops.name_scope("loss"):
            total = output_losses[0]
            for extra in output_losses[1:]:
                total = total + extra
            if self.losses:
                total = total + math_ops.add_n(self.losses)
        self.total_loss = total
        if len(names) > 1:
            self.metrics_names += [n + "_loss" for n in names]
            metric_tensors += output_losses
        # Metric objects report their own running value; the other metrics are averaged over batches here
        self._metric_objects, self._stateful_outputs = [], []
        for output, target, name, fn, wanted in zip(self.outputs, self.targets, names, loss_fns, metric_lists):
            for metric in wanted:
                metric_fn, metric_name = self._metric_for(metric, fn, output)
                mask = getattr(output, "_keras_mask", None)
                if mask is not None and not isinstance(metric_fn, metrics_mod.Metric):
                    # on a masked output Keras averages the metric over the kept entries only
                    metric_fn = metrics_mod.MeanMetricWrapper(metric_fn, name=metric_name)
                with ops.name_scope("metrics"), ops.name_scope(metric_name):
                    if isinstance(metric_fn, metrics_mod.Metric):
                        weights = None if mask is None else math_ops.cast(mask, output.dtype)
                        metric_tensors.append(metric_fn(target, output, sample_weight=weights))
                        self._metric_objects.append(metric_fn)
                    else:
                        metric_tensors.append(math_ops.reduce_mean(metric_fn(target, output)))
                self._stateful_outputs.append(isinstance(metric_fn, metrics_mod.Metric))
                self.metrics_names.append(metric_name if len(names) == 1 else f"{name}_{metric_name}")
        self._metric_tensors = metric_tensors

    @staticmethod
    def _metric_for(metric: Any, loss_fn: Any, output: Any) -> tuple:
        """Keras resolves 'accuracy'/'acc' by the loss and output width; other names by metrics.get."""
        if metric in ("accuracy", "acc"):
            loss_name = _loss_name(getattr(loss_fn, "fn", loss_fn))
            if output.shape.as_list()[-1] == 1 or loss_name == "binary_crossentropy":
                return metrics_mod.binary_accuracy, "acc"
            if loss_name == "sparse_categorical_crossentropy":
                return metrics_mod.sparse_categorical_accuracy, "acc"
            return metrics_mod.categorical_accuracy, "acc"
        if isinstance(metric, metrics_mod.Metric):
            return metric, metric.name
        fn = metrics_mod.get(metric)
        return fn, _loss_name(fn)

    def _require_compiled(self) -> None:
        if not getattr(self, "_is_compiled", False):
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    def _ensure_built(self, x: Any) -> None:
        if not self.built:
            self._build_from_data(x)
        if getattr(self, "_is_compiled", False) and not hasattr(self, "total_loss"):
            self._build_compiled()

    # ---- functions -------------------------------------------------------------------------------------
    def _train_function(self) -> backend.Function:
        if self._train_fn is None:
            with ops.name_scope("training"):
                updates = self.optimizer.get_updates(self.total_loss, self.trainable_weights)
            phase = backend.graph_learning_phase(ops.get_default_graph())
            inputs = self.inputs + self.targets + self.sample_weights + ([phase] if phase is not None else [])
            self._train_fn = backend.Function(inputs, [self.total_loss] + self._metric_tensors,
                                              updates=updates + self.updates)
            self._train_has_phase = phase is not None
        return self._train_fn

    def _test_function(self) -> backend.Function:
        if self._test_fn is None:
            self._test_fn = backend.Function(self.inputs + self.targets + self.sample_weights,
                                             [self.total_loss] + self._metric_tensors,
                                             updates=self.state_updates)
        return self._test_fn

    @property
    def state_updates(self) -> list:
        """The updates of stateful layers (recurrent states), which evaluation and prediction run too."""
        return [u for layer in self.layers if getattr(layer, "stateful", False) for u in layer.updates]

    def reset_states(self) -> None:
        """Zeroes the states of the model's stateful layers."""
        for layer in self.layers:
            if getattr(layer, "stateful", False) and hasattr(layer, "reset_states"):
                layer.reset_states()

    # ---- data ------------------------------------------------------------------------------------------
    def _arrays(self, data: Any, tensors: List[Any], names: List[str], what: str) -> List[np.ndarray]:
        """Data for each tensor (array, list or dict by name) as numpy arrays, checked against the tensor shapes."""
        if isinstance(data, dict):
            missing = [n for n in names if n not in data]
            if missing:
                raise ValueError(f"No data provided for \"{missing[0]}\". Need data for each key in: {names}")
            data = [data[n] for n in names]
        arrays = [np.asarray(d) for d in as_list(data)] if isinstance(data, (list, tuple)) and len(tensors) > 1 \
            else [np.asarray(data)]
        if len(arrays) != len(tensors):
            raise ValueError(f"Error when checking model {what}: the list of Numpy arrays that you are passing to "
                             f"your model is not the size the model expected. Expected to see {len(tensors)} "
                             f"array(s), but instead got {len(arrays)} arrays.")
        out = []
        for arr, tensor, name in zip(arrays, tensors, names):
            if arr.ndim == 1:
                arr = arr[:, None]
            expected = tensor.shape.as_list()
            # targets are checked against the output by the loss (below), as Keras does
            if what == "input":
                if len(expected) != arr.ndim:
                    raise ValueError(f"Error when checking {what}: expected {name} to have {len(expected)} "
                                     f"dimensions, but got array with shape {arr.shape}")
                for want, got in zip(expected[1:], arr.shape[1:]):
                    if want is not None and want != got:
                        shape = tuple(expected[1:])
                        raise ValueError(f"Error when checking {what}: expected {name} to have shape {shape} but "
                                         f"got array with shape {tuple(arr.shape[1:])}")
            out.append(arr.astype(tensor.dtype.base_dtype.as_numpy_dtype, copy=False))
        return out

    def _standardize(self, x: Any, y: Any = None, sample_weight: Any = None, class_weight: Any = None) -> tuple:
        self._ensure_built(x)
        xs = self._arrays(x, self.inputs, self.input_names, "input")
        if y is None:
            return xs, [], []
        self._require_compiled()
        ys = self._arrays(y, self.outputs, self.output_names, "target")
        for arr, output, fn in zip(ys, self.outputs, self._loss_fns):
            name = _loss_name(getattr(fn, "fn", fn))
            shape = output.shape.as_list()
            if name in _SAME_SHAPE_LOSSES and len(shape) == arr.ndim:
                if any(o is not None and o != a for o, a in zip(shape[1:], arr.shape[1:])):
                    raise ValueError(f"A target array with shape {arr.shape} was passed for an output of shape "
                                     f"{tuple(shape)} while using as loss `{name}`. This loss expects targets to "
                                     "have the same shape as the output.")
        counts = {a.shape[0] for a in xs}
        target_counts = {a.shape[0] for a in ys}
        if len(counts) > 1:
            raise ValueError("All input arrays (x) should have the same number of samples. Got array shapes: "
                             f"{[a.shape for a in xs]}")
        if counts != target_counts:
            raise ValueError(f"Input arrays should have the same number of samples as target arrays. Found "
                             f"{xs[0].shape[0]} input samples and {ys[0].shape[0]} target samples.")
        if sample_weight is None and class_weight is not None:
            sws = [_class_weights(arr, class_weight) for arr in ys]
        elif sample_weight is None:
            sws = [np.ones(xs[0].shape[0], np.float32) for _ in ys]
        else:
            sws = [np.asarray(w, np.float32).reshape(-1) for w in (sample_weight if isinstance(sample_weight, list)
                                                                    else [sample_weight] * len(ys))]
        return xs, ys, sws

    # ---- loops -----------------------------------------------------------------------------------------
    def _run_batches(self, fn: Any, arrays: List[np.ndarray], n: int, batch_size: int,
                     index: Optional[np.ndarray] = None, extra: Sequence[Any] = (),
                     on_batch: Any = None) -> List[float]:
        """Runs fn per batch; returns the batch-size-weighted means of its outputs (for metric objects, their
        running value after the last batch)."""
        totals: Optional[np.ndarray] = None
        running: List[float] = []
        self.reset_metrics()
        for b, start in enumerate(range(0, n, batch_size)):
            ids = index[start:start + batch_size] if index is not None else slice(start, start + batch_size)
            feed = [a[ids] for a in arrays] + list(extra)
            if on_batch is not None:
                on_batch.on_batch_begin(b, {"batch": b, "size": len(feed[0])})
            size = len(feed[0])
            outs = np.asarray(fn(feed), dtype=np.float64)
            totals = outs * size if totals is None else totals + outs * size
            running = self._accumulate(outs, size)
            if on_batch is not None:
                on_batch.on_batch_end(b, dict(zip(self.metrics_names, running), batch=b, size=size))
            elif self.stop_training:
                n = min(n, start + size)
                break
        if totals is None:
            return []
        results = [float(t) / n for t in totals]
        stateful = getattr(self, "_stateful_outputs", [])
        first = len(results) - len(stateful)
        return [running[i] if i >= first and stateful[i - first] else r for i, r in enumerate(results)]

    def fit(self, x: Any = None, y: Any = None, batch_size: Optional[int] = None, epochs: int = 1,
            verbose: int = 1, callbacks: Optional[List[cbks.Callback]] = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: Any = True, class_weight: Any = None, sample_weight: Any = None,
            initial_epoch: int = 0, steps_per_epoch: Any = None, validation_steps: Any = None,
            **kwargs: Any) -> cbks.History:
        """Trains for `epochs` passes over (x, y) in batches of `batch_size` (32); returns the History."""
        workers = kwargs.pop("workers", 1)
        kwargs.pop("max_queue_size", None)
        kwargs.pop("use_multiprocessing", None)
        validation_freq = kwargs.pop("validation_freq", 1)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        if batch_sources.is_generator_or_sequence(x) or batch_sources.is_dataset(x):
            self._refuse_batch_arguments(x, y, batch_size)
            return self._fit_steps(x, steps_per_epoch, epochs, verbose, callbacks, validation_data,
                                   validation_steps, class_weight, shuffle, initial_epoch, workers,
                                   validation_freq=validation_freq)
        if steps_per_epoch is not None:
            # with arrays and a step count, TF1 Keras feeds the whole arrays as the batch of every step
            self._ensure_built(x)
            full = (x, y) if sample_weight is None else (x, y, sample_weight)
            return self._fit_steps(itertools.repeat(full), steps_per_epoch, epochs, verbose, callbacks,
                                   validation_data, validation_steps, class_weight, False, initial_epoch, workers,
                                   unit_steps=True, validation_freq=validation_freq)
        self._require_compiled()
        batch_size = 32 if batch_size is None else int(batch_size)
        xs, ys, sws = self._standardize(x, y, sample_weight, class_weight)
        val = None
        if validation_data is not None:
            vx, vy = validation_data[0], validation_data[1]
            vw = validation_data[2] if len(validation_data) > 2 else None
            val = self._standardize(vx, vy, vw)
        elif validation_split and 0.0 < validation_split < 1.0:
            split = int(xs[0].shape[0] * (1.0 - validation_split))
            val = tuple([a[split:] for a in group] for group in (xs, ys, sws))
            xs, ys, sws = tuple([a[:split] for a in group] for group in (xs, ys, sws))
        arrays = xs + ys + sws
        n = xs[0].shape[0]
        fn = self._train_function()
        extra = [True] if self._train_has_phase else []
        history, callback_list = self._fit_callbacks(callbacks, val is not None, batch_size=batch_size,
                                                     epochs=epochs, steps=None, samples=n, verbose=verbose)
        if verbose:
            print(f"Train on {n} samples" + (f", validate on {val[0][0].shape[0]} samples" if val else ""))
        callback_list.on_train_begin({})
        for epoch in range(initial_epoch, epochs):
            callback_list.on_epoch_begin(epoch, {})
            index = np.arange(n)
            if shuffle:
                np.random.shuffle(index)
            started = time.time()
            results = self._run_batches(fn, arrays, n, batch_size, index, extra, callback_list)
            logs = dict(zip(self.metrics_names, results))
            if val is not None and should_validate(validation_freq, epoch):
                val_results = self._run_batches(self._test_function(), val[0] + val[1] + val[2],
                                                val[0][0].shape[0], batch_size)
                logs.update(("val_" + k, v) for k, v in zip(self.metrics_names, val_results))
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}")
                print(_progress_line(n, time.time() - started, logs, verbose))
            callback_list.on_epoch_end(epoch, logs)
            if self.stop_training:
                break
        callback_list.on_train_end({})
        return history

    def evaluate(self, x: Any = None, y: Any = None, batch_size: Optional[int] = None, verbose: int = 1,
                 sample_weight: Any = None, steps: Any = None, callbacks: Any = None, **kwargs: Any) -> Any:
        """Loss (and metrics) over (x, y), batch-size-weighted over batches of `batch_size` (32); over a
        generator, Sequence or Dataset, the mean of the per-step losses."""
        self._require_compiled()
        if batch_sources.is_generator_or_sequence(x) or batch_sources.is_dataset(x):
            self._refuse_batch_arguments(x, y, batch_size)
            values = [np.float32(v) for v in self._evaluate_steps(x, steps, workers=kwargs.get("workers", 1))]
            return values[0] if len(values) == 1 else values
        xs, ys, sws = self._standardize(x, y, sample_weight)
        started = time.time()
        results = self._run_batches(self._test_function(), xs + ys + sws, xs[0].shape[0],
                                    32 if batch_size is None else int(batch_size))
        if verbose:
            print(_progress_line(xs[0].shape[0], time.time() - started, dict(zip(self.metrics_names, results)), 1))
        values = [np.float32(r) for r in results]
        return values[0] if len(values) == 1 else values

    def predict(self, x: Any, batch_size: Optional[int] = None, verbose: int = 0, steps: Any = None,
                callbacks: Any = None, **kwargs: Any) -> Any:
        """Model outputs for x, computed in batches of `batch_size` (32) and concatenated; for a generator,
        Sequence or Dataset, the outputs of its batches' inputs."""
        if batch_sources.is_generator_or_sequence(x) or batch_sources.is_dataset(x):
            self._refuse_batch_arguments(x, None, batch_size)
            return self._predict_steps(x, steps, kwargs.get("workers", 1))
        xs, _, _ = self._standardize(x)
        batch_size = 32 if batch_size is None else int(batch_size)
        fn = backend.Function(self.inputs, self.outputs, updates=self.state_updates)
        n = xs[0].shape[0]
        chunks = [fn([a[s:s + batch_size] for a in xs]) for s in range(0, n, batch_size)]
        outs = [np.concatenate([c[i] for c in chunks]) for i in range(len(self.outputs))]
        return outs[0] if len(outs) == 1 else outs

    def train_on_batch(self, x: Any, y: Any, sample_weight: Any = None, class_weight: Any = None,
                       reset_metrics: bool = True) -> Any:
        """One training step on one batch; the loss before the update and the metrics accumulated since the
        last reset (Keras's metrics are running means; reset_metrics clears them afterwards)."""
        self._require_compiled()
        xs, ys, sws = self._standardize(x, y, sample_weight, class_weight)
        fn = self._train_function()
        outs = fn(xs + ys + sws + ([True] if self._train_has_phase else []))
        return self._batch_result(outs, len(xs[0]), reset_metrics)

    def test_on_batch(self, x: Any, y: Any, sample_weight: Any = None, reset_metrics: bool = True) -> Any:
        """Loss on one batch and the running metrics, without training."""
        self._require_compiled()
        xs, ys, sws = self._standardize(x, y, sample_weight)
        outs = self._test_function()(xs + ys + sws)
        return self._batch_result(outs, len(xs[0]), reset_metrics)

    def reset_metrics(self) -> None:
        """Clears the running means of the metrics and the state of the metric objects."""
        self._metric_sums: Optional[np.ndarray] = None
        self._metric_count = 0
        for metric in getattr(self, "_metric_objects", ()):
            metric.reset_states()

    def _accumulate(self, outs: Any, size: int) -> List[float]:
        """The outputs with each metric replaced by its running mean over the batches since the last reset."""
        outs = np.asarray(outs, dtype=np.float64)
        # the total loss and, with several outputs, the per-output losses are per-batch values
        first = 1 + (len(self.outputs) if len(self.outputs) > 1 else 0)
        if getattr(self, "_metric_sums", None) is None:
            self._metric_sums, self._metric_count = np.zeros(len(outs) - first), 0
        self._metric_sums = self._metric_sums + outs[first:] * size
        self._metric_count += size
        means = self._metric_sums / self._metric_count
        stateful = getattr(self, "_stateful_outputs", [])
        return [float(o) for o in outs[:first]] + [float(outs[first + i]) if i < len(stateful) and stateful[i]
                                                   else float(m) for i, m in enumerate(means)]

    def _batch_result(self, outs: Any, size: int, reset: bool) -> Any:
        values = [np.float32(v) for v in self._accumulate(outs, size)]
        if reset:
            self.reset_metrics()
        return values[0] if len(values) == 1 else values

    def predict_on_batch(self, x: Any) -> Any:
        """Outputs for one batch."""
        xs, _, _ = self._standardize(x)
        outs = backend.Function(self.inputs, self.outputs, updates=self.state_updates)(xs)
        return outs[0] if len(outs) == 1 else outs


def _fold_mask(weights: Any, mask: Any, rescale: bool) -> Any:
    """Sample weights times an output's mask, as Keras folds it in; for mean reductions scaled by
    entries / kept entries, so that the mean over all entries is the mean over the kept ones."""
    mask = math_ops.cast(mask, weights.dtype)
    if rescale:
        mask = mask * (math_ops.cast(array_ops.size(mask), mask.dtype) / math_ops.reduce_sum(mask))
    return weights * mask


def _class_weights(y: np.ndarray, class_weight: Any) -> np.ndarray:
    """Per-sample weights from a {class: weight} dict: classes from one-hot rows (argmax) or integer labels."""
    if not isinstance(class_weight, dict):
        raise ValueError(f"`class_weight` should be a dict mapping classes to weights. Received: {class_weight}")
    classes = np.argmax(y, axis=1) if y.ndim == 2 and y.shape[1] > 1 else y.reshape(len(y))
    classes = classes.astype(np.int64)
    missing = set(np.unique(classes).tolist()) - set(class_weight)
    if missing:
        raise ValueError(f"`class_weight` must contain all classes in the data. The classes {missing} exist in the "
                         "data but not in `class_weight`.")
    return np.asarray([class_weight[c] for c in classes], np.float32)


def _progress_line(n: int, seconds: float, logs: Dict[str, float], verbose: int) -> str:
    """Keras's end-of-epoch line: '150/150 - 0s - loss: 0.6931 - acc: 0.5000'."""
    metrics = "".join(f" - {k}: {v:.4f}" for k, v in logs.items())
    if verbose == 2:
        return f"{n}/{n} - {seconds:.0f}s{metrics}"
    per_sample = seconds / max(n, 1) * 1e6
    return f"{n}/{n} [==============================] - {seconds:.0f}s {per_sample:.0f}us/sample{metrics}"
