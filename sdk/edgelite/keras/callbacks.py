"""tf.keras.callbacks: hooks fit() calls at train/epoch/batch boundaries (History, EarlyStopping, ...)."""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from . import backend


class Callback:
    """Base class; fit sets `model` and `params` before on_train_begin."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: Dict[str, Any] = {}
        self.validation_data = None

    def set_model(self, model: Any) -> None:
        """The model being trained."""
        self.model = model

    def set_params(self, params: dict) -> None:
        """batch_size, epochs, samples, verbose, do_validation, metrics."""
        self.params = params

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        """Before the first epoch."""

    def on_train_end(self, logs: Optional[dict] = None) -> None:
        """After the last epoch."""

    def on_epoch_begin(self, epoch: int, logs: Optional[dict] = None) -> None:
        """Before each epoch."""

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        """After each epoch, with the epoch's metrics (and val_ metrics) in logs."""

    def on_batch_begin(self, batch: int, logs: Optional[dict] = None) -> None:
        """Before each training batch."""

    def on_batch_end(self, batch: int, logs: Optional[dict] = None) -> None:
        """After each training batch, with the batch's metrics."""

    on_train_batch_begin = on_batch_begin
    on_train_batch_end = on_batch_end


class CallbackList:
    """Dispatches each hook to every callback in order."""

    def __init__(self, callbacks: List[Callback]) -> None:
        self.callbacks = list(callbacks)

    def __getattr__(self, hook: str) -> Callable:
        def dispatch(*args: Any) -> None:
            for cb in self.callbacks:
                getattr(cb, hook)(*args)
        return dispatch


class History(Callback):
    """Records every epoch's logs: history['loss'][epoch], ..., and the epoch numbers."""

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        self.epoch: List[int] = []
        self.history: Dict[str, list] = {}

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)


class LambdaCallback(Callback):
    """A callback from plain functions (on_epoch_begin(epoch, logs), on_batch_end(batch, logs), ...)."""

    def __init__(self, on_epoch_begin: Optional[Callable] = None, on_epoch_end: Optional[Callable] = None,
                 on_batch_begin: Optional[Callable] = None, on_batch_end: Optional[Callable] = None,
                 on_train_begin: Optional[Callable] = None, on_train_end: Optional[Callable] = None,
                 **kwargs: Any) -> None:
        super().__init__()
        hooks = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end, on_batch_begin=on_batch_begin,
                     on_batch_end=on_batch_end, on_train_begin=on_train_begin, on_train_end=on_train_end)
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


class TerminateOnNaN(Callback):
    """Stops training when a batch loss is NaN or infinite."""

    def on_batch_end(self, batch: int, logs: Optional[dict] = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(float(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate to schedule(epoch) (or schedule(epoch, lr)) before each epoch."""

    def __init__(self, schedule: Callable, verbose: int = 0) -> None:
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch: int, logs: Optional[dict] = None) -> None:
        lr_var = self.model.optimizer.lr
        try:
            lr = self.schedule(epoch, float(backend.get_value(lr_var)))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.floating, int)):
            raise ValueError('The output of the "schedule" function should be float.')
        backend.set_value(lr_var, float(lr))
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1:05d}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        if logs is not None:
            logs["lr"] = float(backend.get_value(self.model.optimizer.lr))


class EarlyStopping(Callback):
    """Stops training once `monitor` has not improved by min_delta for `patience` epochs."""

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0.0, patience: int = 0, verbose: int = 0,
                 mode: str = "auto", baseline: Optional[float] = None, restore_best_weights: bool = False,
                 start_from_epoch: int = 0) -> None:
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.endswith("auc"))):
            self.monitor_op, self.min_delta = np.greater, abs(min_delta)
        else:
            self.monitor_op, self.min_delta = np.less, -abs(min_delta)
        self.stopped_epoch = 0

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op is np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self.monitor_op(current - self.min_delta, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self.monitor_op(current - self.min_delta, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose > 0:
                    print("Restoring model weights from the end of the best epoch: " f"{self.best_epoch + 1}.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs: Optional[dict] = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


class ModelCheckpoint(Callback):
    """Saves the model (or only its weights) after each epoch, or only when `monitor` improves."""

    def __init__(self, filepath: str, monitor: str = "val_loss", verbose: int = 0, save_best_only: bool = False,
                 save_weights_only: bool = False, mode: str = "auto", save_freq: Any = "epoch",
                 period: int = 1) -> None:
        super().__init__()
        if save_freq != "epoch":
            raise ValueError(f"Unrecognized save_freq: {save_freq}")
        self.filepath, self.monitor, self.verbose = filepath, monitor, verbose
        self.save_best_only, self.save_weights_only, self.period = save_best_only, save_weights_only, period
        if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
            self.monitor_op, self.best = np.greater, -np.inf
        else:
            self.monitor_op, self.best = np.less, np.inf
        self._since_last = 0

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        logs = logs or {}
        self._since_last += 1
        if self._since_last < self.period:
            return
        self._since_last = 0
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None or not self.monitor_op(current, self.best):
                if self.verbose > 0 and current is not None:
                    print(f"\nEpoch {epoch + 1:05d}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1:05d}: {self.monitor} improved from {self.best:.5f} to {current:.5f}, "
                      f"saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1:05d}: saving model to {path}")
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` once `monitor` has not improved by min_delta for `patience`
    epochs (then waits `cooldown` epochs), never below min_lr; records 'lr' in the epoch logs."""

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10, verbose: int = 0,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        self.mode = mode if mode in ("auto", "min", "max") else "auto"

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op, self.best = (lambda a, b: np.less(a, b - self.min_delta)), np.inf
        else:
            self.monitor_op, self.best = (lambda a, b: np.greater(a, b + self.min_delta)), -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        logs = logs if logs is not None else {}
        lr_var = self.model.optimizer.lr
        logs["lr"] = float(backend.get_value(lr_var))
        current = logs.get(self.monitor)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = float(backend.get_value(lr_var))
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    backend.set_value(lr_var, new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1:05d}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class CSVLogger(Callback):
    """Writes one CSV row per epoch: 'epoch' and the sorted log keys."""

    def __init__(self, filename: str, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.filename, self.sep, self.append = filename, separator, append
        self._file: Any = None
        self._keys: Optional[List[str]] = None

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        import os
        self._write_header = not (self.append and os.path.exists(self.filename) and
                                  os.path.getsize(self.filename) > 0)
        self._file = open(self.filename, "a" if self.append else "w", newline="")
        self._keys = None

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        import csv
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            self._writer = csv.DictWriter(self._file, fieldnames=["epoch"] + self._keys, delimiter=self.sep)
            if self._write_header:
                self._writer.writeheader()
        row = {"epoch": epoch}
        row.update((k, logs.get(k, "NA")) for k in self._keys)
        self._writer.writerow(row)
        self._file.flush()

    def on_train_end(self, logs: Optional[dict] = None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
