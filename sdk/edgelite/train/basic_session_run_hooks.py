"""The standard SessionRunHooks: stopping, checkpointing, summaries, logging, NaN checks, step rate."""
from __future__ import annotations

import logging
import os
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from edgelite.framework import errors, ops
from edgelite.summary import FileWriterCache, SessionLog, Summary
from edgelite.summary.run_metadata import RunOptions, chrome_trace

from . import training_util
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues

logger = logging.getLogger("edgelite.train")


def _as_graph_element(obj: Any) -> Any:
    """A tensor or op of the default graph, by object or by name (as hooks accept both)."""
    graph = ops.get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", graph) is not graph:
            raise ValueError(f"Passed {obj} should have graph attribute that is equal to current graph {graph}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    return graph.as_graph_element(obj + ":0")


def _step_after_run(run_values: Any) -> int:
    """The global step after the run: a fetched variable is read once the run's updates are done."""
    return int(run_values.results)


def _global_step_or_raise(hook_name: str) -> Any:
    step = training_util.get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook_name}.")
    return step


class SecondOrStepTimer:
    """Timer that triggers at most once every N seconds or once every N steps."""

    def __init__(self, every_secs: Optional[float] = None, every_steps: Optional[int] = None) -> None:
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self) -> None:
        """Forget when the timer last triggered."""
        self._last_triggered_step: Optional[int] = None
        self._last_triggered_time: Optional[float] = None

    def should_trigger_for_step(self, step: int) -> bool:
        """True at the first step, then once the step or time interval has passed (never twice for a step)."""
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        if self._every_steps is not None and step >= self._last_triggered_step + self._every_steps:
            return True
        return False

    def update_last_triggered_step(self, step: int) -> tuple:
        """Record a trigger at `step`; return (elapsed seconds, elapsed steps) since the last one, or Nones."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed

    def last_triggered_step(self) -> Optional[int]:
        """The step of the last trigger, or None."""
        return self._last_triggered_step


class NeverTriggerTimer(SecondOrStepTimer):
    """A timer that never triggers (used for at_end-only logging)."""

    def __init__(self) -> None:
        self.reset()

    def should_trigger_for_step(self, step: int) -> bool:
        return False


class LoggingTensorHook(SessionRunHook):
    """Prints the given tensors every N local steps, every N seconds, or at end."""

    def __init__(self, tensors: Any, every_n_iter: Optional[int] = None, every_n_secs: Optional[float] = None,
                 at_end: bool = False, formatter: Optional[Callable[[Dict[str, Any]], str]] = None) -> None:
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = NeverTriggerTimer() if only_log_at_end else SecondOrStepTimer(every_n_secs, every_n_iter)
        self._log_at_end = at_end

    def begin(self) -> None:
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        if self._should_trigger:
            return SessionRunArgs(self._current_tensors)
        return None

    def _log_tensors(self, tensor_values: Dict[str, Any]) -> None:
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        try:
            if self._formatter:
                logger.info(self._formatter(tensor_values))
            else:
                stats = ", ".join(f"{tag} = {tensor_values[tag]}" for tag in self._tag_order)
                if elapsed_secs is not None:
                    logger.info("%s (%.3f sec)", stats, elapsed_secs)
                else:
                    logger.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session: Any) -> None:
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Hook that requests stop at a specified step."""

    def __init__(self, num_steps: Optional[int] = None, last_step: Optional[int] = None) -> None:
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    @property
    def last_step(self) -> Optional[int]:
        """The step at which training stops (known once the session exists when num_steps was given)."""
        return self._last_step

    def begin(self) -> None:
        self._global_step_tensor = _global_step_or_raise("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step_tensor)) + self._num_steps

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if _step_after_run(run_values) >= self._last_step:
            run_context.request_stop()


class CheckpointSaverListener:
    """Interface for listeners that take action before or after checkpoint save."""

    def begin(self) -> None:
        """Called once before the session is created."""

    def before_save(self, session: Any, global_step_value: int) -> None:
        """Called before each save."""

    def after_save(self, session: Any, global_step_value: int) -> Optional[bool]:
        """Called after each save; return True to request that training stops."""
        return None

    def end(self, session: Any, global_step_value: int) -> None:
        """Called at the end of the session, after the final save."""


class CheckpointSaverHook(SessionRunHook):
    """Saves checkpoints every N steps or seconds (and once when the session starts and ends)."""

    def __init__(self, checkpoint_dir: str, save_secs: Optional[float] = None, save_steps: Optional[int] = None,
                 saver: Any = None, checkpoint_basename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Optional[List[CheckpointSaverListener]] = None, save_graph_def: bool = True) -> None:
        logger.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def

    def begin(self) -> None:
        self._summary_writer = FileWriterCache.get(self._checkpoint_dir)
        self._global_step_tensor = _global_step_or_raise("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        global_step = int(session.run(self._global_step_tensor))
        if self._save_graph_def:
            from ..io.graph_io import write_graph
            write_graph(session.graph.as_graph_def(add_shapes=True), self._checkpoint_dir, "graph.pbtxt")
        saver = self._get_saver()
        # TensorBoard's graph view reads these events.
        self._summary_writer.add_graph(graph_def=session.graph.as_graph_def(add_shapes=True))
        from ..framework.meta_graph import export_meta_graph
        self._summary_writer.add_meta_graph(export_meta_graph(
            graph_def=session.graph.as_graph_def(add_shapes=True), graph=session.graph,
            saver_def=saver.saver_def if saver is not None else None))
        # The checkpoint saved here is the state at step `global_step`.
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        global_step = _step_after_run(run_values)
        if self._timer.should_trigger_for_step(global_step):
            self._timer.update_last_triggered_step(global_step)
            if self._save(run_context.session, global_step):
                run_context.request_stop()

    def end(self, session: Any) -> None:
        last_step = int(session.run(self._global_step_tensor))
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step: int) -> bool:
        """Save, log a CHECKPOINT session event, and report whether a listener asked to stop."""
        logger.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logger.info("Saving checkpoints for %d into %s.", step, self._save_path)
        path = self._get_saver().save(session, self._save_path, global_step=step,
                                      write_meta_graph=self._save_graph_def)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=path or self._save_path), step)
        self._summary_writer.flush()
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logger.info("A CheckpointSaverListener requested that training be stopped. listener: %s", listener)
                should_stop = True
        return should_stop

    def _get_saver(self) -> Any:
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        collection_key = ops.GraphKeys.SAVERS
        savers = ops.get_collection(collection_key)
        if not savers:
            raise RuntimeError(f"No items in collection {collection_key}. Please add a saver to the collection "
                               "or provide a saver or scaffold.")
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {collection_key}. Please indicate which one "
                               "to use by passing it to the constructor.")
        self._saver = savers[0]
        return savers[0]


class StepCounterHook(SessionRunHook):
    """Hook that counts steps per second and writes it as a summary."""

    def __init__(self, every_n_steps: Optional[int] = 100, every_n_secs: Optional[float] = None,
                 output_dir: Optional[str] = None, summary_writer: Any = None) -> None:
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step: Optional[int] = None

    def begin(self) -> None:
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._global_step_tensor = _global_step_or_raise("StepCounterHook")
        self._summary_tag = self._global_step_tensor.op.name + "/sec"

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps: int, elapsed_time: float, global_step: int) -> None:
        steps_per_sec = elapsed_steps / elapsed_time if elapsed_time > 0 else float("inf")
        if self._summary_writer is not None:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=float(steps_per_sec))])
            self._summary_writer.add_summary(summary, global_step)
        logger.info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        # The first run only starts the clock; rates are reported from then on.
        global_step = _step_after_run(run_values)
        if self._timer.should_trigger_for_step(global_step):
            elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
            if elapsed_time is not None:
                self._log_and_record(elapsed_steps, elapsed_time, global_step)
        if global_step == self._last_global_step:
            logger.warning("It seems that global step has not been increased. Current value (could be stable): "
                           "%s vs previous value: %s.", global_step, self._last_global_step)
        self._last_global_step = global_step

    def end(self, session: Any) -> None:
        if self._summary_writer is not None:
            self._summary_writer.flush()


class NanLossDuringTrainingError(RuntimeError):
    """Raised by NanTensorHook when the monitored loss becomes NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Monitors the loss tensor and stops training if loss is NaN."""

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True) -> None:
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logger.error(message)
                raise NanLossDuringTrainingError
            logger.warning(message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Saves summaries every N steps (or seconds) to an event file."""

    def __init__(self, save_steps: Optional[int] = None, save_secs: Optional[float] = None,
                 output_dir: Optional[str] = None, summary_writer: Any = None, scaffold: Any = None,
                 summary_op: Any = None) -> None:
        if (scaffold is None and summary_op is None) or (scaffold is not None and summary_op is not None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self) -> None:
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._next_step: Optional[int] = None
        self._global_step_tensor = _global_step_or_raise("SummarySaverHook")

    def _get_summary_op(self) -> Optional[list]:
        op = self._scaffold.summary_op if self._scaffold is not None else self._summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests: Dict[str, Any] = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if not self._summary_writer:
            return
        global_step = int(run_values.results["global_step"])
        if self._next_step is None:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", []):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session: Any = None) -> None:
        if self._summary_writer:
            self._summary_writer.flush()


class ProfilerHook(SessionRunHook):
    """Every N steps or seconds, records each op's run time and writes it as Chrome trace JSON.

    Files are `<output_dir>/timeline-<global step>.json` (open in chrome://tracing or Perfetto); the
    RunMetadata also goes to the directory's event file under the tag `step_<global step>`.
    """

    def __init__(self, save_steps: Optional[int] = None, save_secs: Optional[float] = None, output_dir: str = "",
                 show_dataflow: bool = True) -> None:
        self._output_dir = output_dir
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._show_dataflow = show_dataflow
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self) -> None:
        self._next_step: Optional[int] = None
        self._file_writer = FileWriterCache.get(self._output_dir or os.curdir)
        self._global_step_tensor = _global_step_or_raise("ProfilerHook")

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        self._request_trace = self._next_step is not None and self._timer.should_trigger_for_step(self._next_step)
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) if self._request_trace else None
        return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        global_step = int(run_values.results["global_step"])
        if self._next_step is None:
            # The first run is not traced; the interval counts from the step it started at.
            self._timer.update_last_triggered_step(global_step - 1)
        if self._request_trace:
            self._timer.update_last_triggered_step(global_step)
            path = self._output_file.format(global_step)
            logger.info("Saving timeline for %d into '%s'.", global_step, path)
            with open(path, "w", encoding="utf-8") as f:
                f.write(chrome_trace(run_values.run_metadata.step_stats, show_dataflow=self._show_dataflow))
            self._file_writer.add_run_metadata(run_values.run_metadata, f"step_{global_step}")
            self._file_writer.flush()
        self._next_step = global_step + 1


class GlobalStepWaiterHook(SessionRunHook):
    """Delays execution until global step reaches `wait_until_step` (for workers starting after the chief)."""

    def __init__(self, wait_until_step: int) -> None:
        self._wait_until_step = wait_until_step

    def begin(self) -> None:
        self._worker_is_started = False
        self._global_step_tensor = _global_step_or_raise("_GlobalStepWaiterHook")

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        if self._worker_is_started or self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        while True:
            current = int(run_context.session.run(self._global_step_tensor))
            if current >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if run_context.stop_requested:
                return None
            time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
    """A hook which evaluates tensors at the end of a session."""

    def __init__(self, final_ops: Any, final_ops_feed_dict: Optional[dict] = None) -> None:
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self) -> Any:
        """The values of final_ops fetched when the session ended."""
        return self._final_ops_values

    def end(self, session: Any) -> None:
        if self._final_ops is not None:
            try:
                self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)
            except (errors.OutOfRangeError, StopIteration) as exc:
                logger.warning("An OutOfRangeError or StopIteration exception is raised by the code in "
                               "FinalOpsHook. This typically means the Ops running by the FinalOpsHook have a "
                               "dependency back to some input source, which should not happen. (%s)", exc)
                raise


class FeedFnHook(SessionRunHook):
    """Runs `feed_fn` and sets the `feed_dict` accordingly."""

    def __init__(self, feed_fn: Callable[[], dict]) -> None:
        self.feed_fn = feed_fn

    def before_run(self, run_context: SessionRunContext) -> Optional[SessionRunArgs]:
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
