"""MonitoredSession and friends: sessions that initialize or recover, run hooks, and save as they train."""
from __future__ import annotations

import abc
import inspect
import logging
from typing import Any, Callable, Dict, List, Optional

from edgelite.distribute import context as replica_context
from edgelite.framework import errors, ops

from . import basic_session_run_hooks as hooks_lib
from .progress import ProgressHook
from .session_manager import SessionManager
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues
from ..summary.run_metadata import RunMetadata, RunOptions

logger = logging.getLogger("edgelite.train")

USE_DEFAULT = object()
_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)


class Scaffold:
    """Structure to create or gather pieces commonly needed to train a model (init, ready, saver, summary ops)."""

    def __init__(self, init_op: Any = None, init_feed_dict: Optional[dict] = None,
                 init_fn: Optional[Callable[["Scaffold", Any], None]] = None, ready_op: Any = None,
                 ready_for_local_init_op: Any = None, local_init_op: Any = None, summary_op: Any = None,
                 saver: Any = None, copy_from_scaffold: Optional["Scaffold"] = None,
                 local_init_feed_dict: Optional[dict] = None) -> None:
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            coalesce = lambda a, b: a if a is not None else b  # noqa: E731
            init_op = coalesce(init_op, copy_from_scaffold.init_op)
            init_feed_dict = coalesce(init_feed_dict, copy_from_scaffold.init_feed_dict)
            init_fn = coalesce(init_fn, copy_from_scaffold._user_init_fn)
            ready_op = coalesce(ready_op, copy_from_scaffold.ready_op)
            ready_for_local_init_op = coalesce(ready_for_local_init_op, copy_from_scaffold.ready_for_local_init_op)
            local_init_op = coalesce(local_init_op, copy_from_scaffold.local_init_op)
            local_init_feed_dict = coalesce(local_init_feed_dict, copy_from_scaffold.local_init_feed_dict)
            summary_op = coalesce(summary_op, copy_from_scaffold.summary_op)
            saver = coalesce(saver, copy_from_scaffold.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self) -> "Scaffold":
        """Create the default ops that were not given, then make the graph read-only."""
        from edgelite.ops import variables
        from edgelite import summary as summary_lib
        from .saver import Saver

        if self._init_op is None:
            self._init_op = Scaffold.get_or_default("init_op", ops.GraphKeys.INIT_OP,
                                                    variables.global_variables_initializer)
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default("ready_op", ops.GraphKeys.READY_OP,
                                                     variables.report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", ops.GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: variables.report_uninitialized_variables(variables.global_variables()))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default("local_init_op", ops.GraphKeys.LOCAL_INIT_OP,
                                                          Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = Scaffold.get_or_default("summary_op", ops.GraphKeys.SUMMARY_OP,
                                                       summary_lib.merge_all)
        if self._saver is None:
            savers = ops.get_collection(ops.GraphKeys.SAVERS)
            if savers:
                if len(savers) > 1:
                    raise RuntimeError(f"More than one item in collection {ops.GraphKeys.SAVERS}. Please indicate "
                                       "which one to use by passing it to the constructor.")
                self._saver = savers[0]
            elif variables.global_variables() or ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS):
                self._saver = Saver(sharded=True, allow_empty=True)
                ops.add_to_collection(ops.GraphKeys.SAVERS, self._saver)
        if self._saver is not None and hasattr(self._saver, "build"):
            self._saver.build()
        ops.get_default_graph().finalize()
        logger.info("Graph was finalized.")
        return self

    init_fn = property(lambda self: self._init_fn, doc="Called as init_fn(session) after init_op.")
    init_op = property(lambda self: self._init_op, doc="Op that initializes the global variables.")
    ready_op = property(lambda self: self._ready_op, doc="Lists uninitialized variables; empty when ready.")
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op,
                                       doc="Lists global variables still uninitialized before local init.")
    local_init_op = property(lambda self: self._local_init_op, doc="Initializes local variables and tables.")
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict, doc="Feeds for local_init_op.")
    summary_op = property(lambda self: self._summary_op, doc="Merged summary op (or None).")
    saver = property(lambda self: self._saver, doc="The Saver used to save and restore checkpoints.")
    init_feed_dict = property(lambda self: self._init_feed_dict, doc="Feeds for init_op.")

    @staticmethod
    def get_or_default(arg_name: str, collection_key: str, default_constructor: Callable[[], Any]) -> Any:
        """The single item of a collection, or a new default stored there."""
        elements = ops.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError(f'More than one item in the collection "{collection_key}". Please indicate which '
                                   f"one to use by passing it to the tf.Scaffold constructor as:  "
                                   f"tf.Scaffold({arg_name}=item to use)")
            return elements[0]
        op = default_constructor()
        if op is not None:
            ops.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op() -> Any:
        """Group of the local-variable initializer and table initializers."""
        from edgelite.ops import control_flow_ops, variables
        parts = [variables.local_variables_initializer()]
        parts.extend(ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS))
        return control_flow_ops.group(*parts)


class SessionCreator(abc.ABC):
    """A factory for sessions."""

    @abc.abstractmethod
    def create_session(self) -> Any:
        """Return a new, ready session."""


class ChiefSessionCreator(SessionCreator):
    """Creates a session for the chief: restores the latest checkpoint or initializes the variables."""

    def __init__(self, scaffold: Optional[Scaffold] = None, master: str = "", config: Any = None,
                 checkpoint_dir: Optional[str] = None, checkpoint_filename_with_path: Optional[str] = None) -> None:
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._session_manager: Optional[SessionManager] = None
        self._master = master
        self._config = config

    def _get_session_manager(self) -> SessionManager:
        if self._session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._scaffold.local_init_op, local_init_feed_dict=self._scaffold.local_init_feed_dict,
                ready_op=self._scaffold.ready_op, ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                graph=ops.get_default_graph())
        return self._session_manager

    def create_session(self) -> Any:
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path, config=self._config,
            init_op=self._scaffold.init_op, init_feed_dict=self._scaffold.init_feed_dict,
            init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(SessionCreator):
    """Creates a session for a non-chief worker: waits until the chief has initialized the model."""

    def __init__(self, scaffold: Optional[Scaffold] = None, master: str = "", config: Any = None,
                 max_wait_secs: float = 30 * 60) -> None:
        self._scaffold = scaffold or Scaffold()
        self._master = master
        self._config = config
        self._max_wait_secs = max_wait_secs

    def create_session(self) -> Any:
        self._scaffold.finalize()
        if replica_context.current() is not None:
            # A Ray replica holds its own variables: initialize them here; SyncReplicasOptimizer's hook then
            # overwrites them with the chief's.
            return ChiefSessionCreator(self._scaffold, self._master, self._config).create_session()
        manager = SessionManager(local_init_op=self._scaffold.local_init_op,
                                 local_init_feed_dict=self._scaffold.local_init_feed_dict,
                                 ready_op=self._scaffold.ready_op,
                                 ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                                 graph=ops.get_default_graph())
        return manager.wait_for_session(self._master, config=self._config, max_wait_secs=self._max_wait_secs)


class _HookedSession:
    """Runs hooks' before_run/after_run around each session.run and merges their fetches and feeds."""

    def __init__(self, sess: Any, hooks: List[SessionRunHook]) -> None:
        self._sess = sess
        self._hooks = hooks
        self._should_stop = False

    @property
    def graph(self) -> Any:
        return self._sess.graph

    def should_stop(self) -> bool:
        return self._should_stop

    def request_stop(self) -> None:
        self._should_stop = True

    def close(self) -> None:
        self._sess.close()

    def run(self, fetches: Any, feed_dict: Optional[dict] = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        if self._should_stop:
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches: Dict[Any, Any] = {"caller": fetches}
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._sess)
        feed_dict, options = self._call_hook_before_run(run_context, actual_fetches, feed_dict, options)
        if options is not None and run_metadata is None:
            run_metadata = RunMetadata()
        outputs = self._sess.run(actual_fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
        for index, hook in enumerate(self._hooks):
            key = ("hook", index)
            hook.after_run(run_context, SessionRunValues(results=outputs.get(key), options=options,
                                                         run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context: SessionRunContext, fetch_dict: dict,
                              user_feed_dict: Optional[dict], options: Any):
        hook_feeds: dict = {}
        for index, hook in enumerate(self._hooks):
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                fetch_dict[("hook", index)] = request.fetches
            if request.feed_dict:
                if set(request.feed_dict) & set(hook_feeds):
                    raise RuntimeError("Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options is not None:
                options = _merge_options(options, request.options)
        if not hook_feeds:
            return user_feed_dict, options
        if not user_feed_dict:
            return hook_feeds, options
        if set(hook_feeds) & set(user_feed_dict):
            raise RuntimeError("Same tensor is fed by a SessionRunHook and user.")
        merged = dict(user_feed_dict)
        merged.update(hook_feeds)
        return merged, options


def _merge_options(options: Any, extra: Any) -> Any:
    """The caller's RunOptions with a hook's: the deeper trace level and the shorter timeout win."""
    merged = RunOptions(trace_level=getattr(options, "trace_level", 0),
                        timeout_in_ms=getattr(options, "timeout_in_ms", 0))
    merged.trace_level = max(merged.trace_level, extra.trace_level)
    timeouts = [t for t in (merged.timeout_in_ms, extra.timeout_in_ms) if t > 0]
    merged.timeout_in_ms = min(timeouts) if timeouts else 0
    return merged


class StepContext:
    """Control-flow instrument given to a run_step_fn step function."""

    def __init__(self, session: Any, run_with_hooks_fn: Callable[..., Any]) -> None:
        self._session = session
        self._run_with_hooks_fn = run_with_hooks_fn

    @property
    def session(self) -> Any:
        """The raw session: runs without calling hooks."""
        return self._session

    def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
        """Same as MonitoredSession.run: runs with hooks."""
        return self._run_with_hooks_fn(*args, **kwargs)

    def request_stop(self) -> None:
        """Exit the training loop: should_stop() becomes True and the step function ends with StopIteration."""
        raise StopIteration("step_fn has requested the iterations to stop.")


def _coordinator() -> Any:
    """The Coordinator hooks receive in after_create_session (for the threads they start)."""
    from .coordinator import Coordinator
    return Coordinator()


class _MonitoredSession:
    """Shared machinery of MonitoredSession and SingularMonitoredSession."""

    StepContext = StepContext

    def __init__(self, session_creator: SessionCreator, hooks: Optional[List[SessionRunHook]],
                 should_recover: bool, stop_grace_period_secs: float = 120) -> None:
        self._graph_was_finalized = ops.get_default_graph().finalized
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._session_creator = session_creator
        self._should_recover = should_recover
        self._stop_grace_period_secs = stop_grace_period_secs
        self._tf_sess: Any = None
        self._coord: Any = None
        self._sess: Optional[_HookedSession] = None
        self._create()

    def _create(self) -> None:
        while True:
            try:
                self._tf_sess = self._session_creator.create_session()
                break
            except _PREEMPTION_ERRORS as exc:
                if not self._should_recover:
                    raise
                logger.info("An error was raised while a session was being created (%s). Retrying.", exc)
        self._coord = _coordinator()
        # As TensorFlow's coordinated session creator: the graph's queue runners feed the new session.
        from .queue_runner import start_queue_runners
        start_queue_runners(sess=self._tf_sess, coord=self._coord)
        for hook in self._hooks:
            hook.after_create_session(self._tf_sess, self._coord)
        self._sess = _HookedSession(self._tf_sess, self._hooks)

    @property
    def graph(self) -> Any:
        """The graph this session runs."""
        return self._tf_sess.graph

    def run(self, fetches: Any, feed_dict: Optional[dict] = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Run with hooks; on AbortedError/UnavailableError a recoverable session is recreated and retried."""
        while True:
            if self._sess is None:
                raise RuntimeError("Run called even after session was closed.")
            try:
                return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as exc:
                if not self._should_recover:
                    raise
                logger.info("An error was raised (%s). This may be due to a preemption; recreating the session.",
                            exc)
                self._recreate()

    def _recreate(self) -> None:
        try:
            self._sess.close()
        except Exception:  # noqa: BLE001 - the old session may be broken; a new one replaces it either way
            logger.warning("Closing the failed session raised; continuing with a new session.")
        self._create()

    def run_step_fn(self, step_fn: Callable[[StepContext], Any]) -> Any:
        """Run `step_fn(step_context)`; StopIteration when it calls step_context.request_stop()."""
        args = tuple(inspect.signature(step_fn).parameters)
        if inspect.ismethod(step_fn):
            args = ("self",) + args
        if args != ("step_context",) and args != ("self", "step_context"):
            raise ValueError("`step_fn` may either have one `step_context` argument, or `self` and "
                             "`step_context` arguments if it's an instance method. Got "
                             f"{args} instead.")
        while True:
            try:
                return step_fn(StepContext(self._tf_sess, self.run))
            except StopIteration:
                if self._sess is not None:
                    self._sess.request_stop()
                raise
            except _PREEMPTION_ERRORS:
                if not self._should_recover:
                    raise
                self._recreate()

    def should_stop(self) -> bool:
        """True once a hook, a step function or a hook's thread (via the coordinator) asked to stop, or after
        close()."""
        return self._sess is None or self._sess.should_stop() or self._coord.should_stop()

    def close(self) -> None:
        """Call hooks' end(), then close the session."""
        self._close_internal()

    def _close_internal(self, exception_type: Any = None) -> None:
        try:
            if not exception_type:
                for hook in self._hooks:
                    hook.end(self._tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                try:
                    self._coord.request_stop()
                    # Threads started by hooks (registered with the coordinator) get the grace period to end;
                    # an error one of them reported is raised here.
                    self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs, ignore_live_threads=True)
                finally:
                    self._sess.close()
            finally:
                self._sess = None
                if not self._graph_was_finalized:
                    ops.get_default_graph()._unsafe_unfinalize()

    def __enter__(self) -> "_MonitoredSession":
        return self

    def __exit__(self, exception_type: Any, exception_value: Any, traceback: Any) -> bool:
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        # Suppresses OutOfRangeError (all input consumed) and StopIteration (request_stop in a step function).
        return exception_type is None


class MonitoredSession(_MonitoredSession):
    """Session-like object that handles initialization, recovery and hooks."""

    def __init__(self, session_creator: Optional[SessionCreator] = None,
                 hooks: Optional[List[SessionRunHook]] = None, stop_grace_period_secs: float = 120) -> None:
        super().__init__(session_creator or ChiefSessionCreator(), hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """MonitoredSession for a single process: always chief, no recovery from AbortedError/UnavailableError."""

    def __init__(self, hooks: Optional[List[SessionRunHook]] = None, scaffold: Optional[Scaffold] = None,
                 master: str = "", config: Any = None, checkpoint_dir: Optional[str] = None,
                 stop_grace_period_secs: float = 120, checkpoint_filename_with_path: Optional[str] = None) -> None:
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self) -> Any:
        """The underlying Session object."""
        return self._tf_sess


def MonitoredTrainingSession(master: str = "", is_chief: bool = True,  # noqa: N802 - TensorFlow's spelling
                             checkpoint_dir: Optional[str] = None, scaffold: Optional[Scaffold] = None,
                             hooks: Optional[List[SessionRunHook]] = None,
                             chief_only_hooks: Optional[List[SessionRunHook]] = None,
                             save_checkpoint_secs: Any = USE_DEFAULT, save_summaries_steps: Any = USE_DEFAULT,
                             save_summaries_secs: Any = USE_DEFAULT, config: Any = None,
                             stop_grace_period_secs: float = 120, log_step_count_steps: Optional[int] = 100,
                             max_wait_secs: float = 7200, save_checkpoint_steps: Any = USE_DEFAULT,
                             summary_dir: Optional[str] = None, save_graph_def: bool = True,
                             show_progress: bool = True) -> MonitoredSession:
    """A MonitoredSession set up for training: checkpoints, summaries and step-rate logging in the chief.

    Defaults as TensorFlow: checkpoints every 600 s, summaries every 100 steps, step rate every 100 steps.
    `show_progress` (edgelite) shows a progress line in the chief while training.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT or save_checkpoint_secs is not None:
        # As documented: when both are given, only save_checkpoint_secs is used.
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    if not is_chief:
        creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config, max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks: List[SessionRunHook] = list(chief_only_hooks or [])
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(hooks_lib.StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(hooks_lib.SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                                        save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(hooks_lib.CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                                           save_secs=save_checkpoint_secs, scaffold=scaffold,
                                                           save_graph_def=save_graph_def))
    if hooks:
        all_hooks.extend(hooks)
    if show_progress:
        all_hooks.append(ProgressHook.for_hooks(all_hooks))
    return MonitoredSession(session_creator=creator, hooks=all_hooks, stop_grace_period_secs=stop_grace_period_secs)
