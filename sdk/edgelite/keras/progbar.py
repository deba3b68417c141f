"""tf.keras.utils.Progbar: the text progress bar Keras prints during fit and downloads, in Keras's exact format."""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Iterable, List, Optional, Tuple

import numpy as np


def _format_duration(seconds: float, unit_name: str) -> str:
    """' 3s/step', ' 12ms/step' or ' 40us/step': Keras picks the largest unit that keeps the number >= 1."""
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit_name}"
    return f" {seconds * 1e6:.0f}us/{unit_name}"


def _format_eta(eta: float) -> str:
    """Remaining time as h:mm:ss, m:ss or Ns, as Keras shows it after 'ETA:'."""
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


def _format_average(avg: Any, signed: bool) -> str:
    """Metric value in Keras's notation: 4 decimals, or scientific when tiny (verbose=2 compares without abs)."""
    magnitude = abs(avg) if signed else avg
    return f" {avg:.4f}" if magnitude > 1e-3 else f" {avg:.4e}"


class Progbar:
    """A progress bar over `target` steps that averages metric values over the steps seen (unless stateful)."""

    def __init__(self, target: Optional[int], width: int = 30, verbose: int = 1, interval: float = 0.05,
                 stateful_metrics: Optional[Iterable[str]] = None, unit_name: str = "step") -> None:
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        # Keras redraws in place whenever the platform is POSIX, not only on a tty.
        self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
                                 or "ipykernel" in sys.modules or "posix" in sys.modules
                                 or "PYCHARM_HOSTED" in os.environ)
        self._total_width = 0
        self._seen_so_far = 0
        self._values: dict = {}
        self._values_order: List[str] = []
        self._start = time.time()
        self._last_update = 0.0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end: Optional[float] = None
        self._time_after_first_step: Optional[float] = None

    def update(self, current: int, values: Optional[List[Tuple[str, Any]]] = None,
               finalize: Optional[bool] = None) -> None:
        """Move the bar to step `current`, folding `values` (name, value) pairs into the running averages."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        self._accumulate(current, values or [])
        self._seen_so_far = current
        now = time.time()
        elapsed = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._write(self._line_verbose1(current, now, elapsed, finalize))
        elif self.verbose == 2 and finalize:
            self._write(self._line_verbose2(current, now, elapsed))
        self._last_update = now

    def add(self, n: int, values: Optional[List[Tuple[str, Any]]] = None) -> None:
        """Advance the bar by `n` steps."""
        self.update(self._seen_so_far + n, values)

    def _accumulate(self, current: int, values: List[Tuple[str, Any]]) -> None:
        """Weight each value by the steps since the last update so the shown number is a per-step mean."""
        for name, value in values:
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
                continue
            # At least 1, so a repeated update at the same step still counts its value.
            weight = max(current - self._seen_so_far, 1)
            if name in self._values:
                self._values[name][0] += value * weight
                self._values[name][1] += weight
            else:
                self._values[name] = [value * weight, weight]

    def _metrics_text(self, signed: bool) -> str:
        text = ""
        for name in self._values_order:
            total, count = self._values[name]
            text += f" - {name}:" + _format_average(np.mean(total / max(1, count)), signed)
        return text

    def _line_verbose1(self, current: int, now: float, info: str, finalize: bool) -> str:
        """The redrawn bar line: backspaces and CR over the previous one, then bar, ETA or speed, metrics."""
        previous_width = self._total_width
        message = "\b" * previous_width + "\r" if self._dynamic_display else "\n"
        if self.target is not None:
            digits = int(np.log10(self.target)) + 1
            bar = ("%" + str(digits) + "d/%d [") % (current, self.target)
            filled = int(self.width * float(current) / self.target)
            if filled > 0:
                bar += "=" * (filled - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - filled) + "]"
        else:
            bar = "%7d/Unknown" % current
        self._total_width = len(bar)
        step_time = self._step_duration(current, now)
        if self.target is None or finalize:
            info += _format_duration(step_time, self.unit_name)
        else:
            info = " - ETA: " + _format_eta(step_time * (self.target - current))
        info += self._metrics_text(signed=True)
        self._total_width += len(info)
        if previous_width > self._total_width:
            info += " " * (previous_width - self._total_width)
        if finalize:
            info += "\n"
        return message + bar + info

    def _line_verbose2(self, current: int, now: float, info: str) -> str:
        """The one line per epoch: count, elapsed, metrics, then time per epoch and per step."""
        digits = int(np.log10(self.target)) + 1
        line = ("%" + str(digits) + "d/%d") % (current, self.target) + info + self._metrics_text(signed=False)
        if self._time_at_epoch_end:
            epoch_time = self._time_at_epoch_end - self._time_at_epoch_start
            line += " -" + _format_duration(epoch_time, "epoch")
            line += " -" + _format_duration(epoch_time / self.target, self.unit_name) + "\n"
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
        return line

    def _step_duration(self, current: int, now: float) -> float:
        """Seconds per step, leaving out the first (warm-up) step once later steps exist."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_step = (now - self._time_after_first_step) / (current - 1)
        else:
            per_step = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_step

    @staticmethod
    def _write(message: str) -> None:
        sys.stdout.write(message)
        sys.stdout.flush()
