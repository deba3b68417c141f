"""tf.estimator.RunConfig: where an Estimator writes and how often it checkpoints and summarises."""
from __future__ import annotations

from typing import Any, Optional

_DEFAULT_CHECKPOINT_SECS = 600


class RunConfig:
    """Run settings of an Estimator on one machine (TF1 defaults: checkpoint every 600 s, keep 5)."""

    def __init__(self, model_dir: Optional[str] = None, tf_random_seed: Optional[int] = None,
                 save_summary_steps: int = 100, save_checkpoints_steps: Optional[int] = None,
                 save_checkpoints_secs: Any = None, session_config: Any = None, keep_checkpoint_max: int = 5,
                 keep_checkpoint_every_n_hours: float = 10000, log_step_count_steps: int = 100,
                 train_distribute: Any = None, device_fn: Any = None, protocol: Any = None,
                 eval_distribute: Any = None, experimental_distribute: Any = None,
                 experimental_max_worker_delay_secs: Any = None, session_creation_timeout_secs: int = 7200,
                 checkpoint_save_graph_def: bool = True) -> None:
        if save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError("Can not specify both save_checkpoints_steps and save_checkpoints_secs.")
        if save_checkpoints_steps is None and save_checkpoints_secs is None:
            save_checkpoints_secs = _DEFAULT_CHECKPOINT_SECS
        self._model_dir = model_dir
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_steps = save_checkpoints_steps
        self._save_checkpoints_secs = save_checkpoints_secs
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._log_step_count_steps = log_step_count_steps
        self._train_distribute = train_distribute
        self._device_fn = device_fn
        self._protocol = protocol
        self._eval_distribute = eval_distribute
        self._experimental_max_worker_delay_secs = experimental_max_worker_delay_secs
        self._session_creation_timeout_secs = session_creation_timeout_secs
        self._checkpoint_save_graph_def = checkpoint_save_graph_def

    model_dir = property(lambda self: self._model_dir)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_steps = property(lambda self: self._save_checkpoints_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    session_config = property(lambda self: self._session_config)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(lambda self: self._keep_checkpoint_every_n_hours)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    train_distribute = property(lambda self: self._train_distribute)
    eval_distribute = property(lambda self: self._eval_distribute)
    device_fn = property(lambda self: self._device_fn)
    protocol = property(lambda self: self._protocol)
    session_creation_timeout_secs = property(lambda self: self._session_creation_timeout_secs)
    checkpoint_save_graph_def = property(lambda self: self._checkpoint_save_graph_def)
    # A single local process: always the chief worker of a one-worker cluster.
    cluster_spec = property(lambda self: None)
    task_type = property(lambda self: "worker")
    task_id = property(lambda self: 0)
    is_chief = property(lambda self: True)
    master = property(lambda self: "")
    evaluation_master = property(lambda self: "")
    num_ps_replicas = property(lambda self: 0)
    num_worker_replicas = property(lambda self: 1)
    global_id_in_cluster = property(lambda self: 0)
    service = property(lambda self: None)

    _REPLACEABLE = ("model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                    "save_checkpoints_secs", "session_config", "keep_checkpoint_max", "keep_checkpoint_every_n_hours",
                    "log_step_count_steps", "train_distribute", "device_fn", "protocol", "eval_distribute",
                    "session_creation_timeout_secs", "checkpoint_save_graph_def")

    def replace(self, **kwargs: Any) -> "RunConfig":
        """A copy with the given properties changed (unknown names raise ValueError, as TF)."""
        for key in kwargs:
            if key not in self._REPLACEABLE:
                raise ValueError(f"{key} is not a valid property.")
        current = {key: getattr(self, key) for key in self._REPLACEABLE}
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" not in kwargs:
            current["save_checkpoints_secs"] = None
        if "save_checkpoints_secs" in kwargs and "save_checkpoints_steps" not in kwargs:
            current["save_checkpoints_steps"] = None
        current.update(kwargs)
        return RunConfig(**current)
