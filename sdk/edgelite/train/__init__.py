"""Training: optimizers, schedules, checkpoints (TensorFlow's tf.compat.v1.train names)."""
from ..checkpoint.protos import SaverDef  # noqa: F401
from ..checkpoint.state import CheckpointState  # noqa: F401
from .checkpoint import Checkpoint, CheckpointLoadStatus  # noqa: F401
from .checkpoint_management import (CheckpointManager, checkpoint_exists, generate_checkpoint_state_proto,  # noqa: F401
                                    get_checkpoint_mtimes, get_checkpoint_state, latest_checkpoint,
                                    remove_checkpoint, update_checkpoint_state)
from .checkpoint_reader import CheckpointReader, NewCheckpointReader  # noqa: F401
from .checkpoint_utils import init_from_checkpoint, list_variables, load_checkpoint, load_variable  # noqa: F401
from .checkpoint_waiting import checkpoints_iterator, wait_for_new_checkpoint  # noqa: F401
from .saver import Saver  # noqa: F401
from ..framework.meta_graph import export_meta_graph, import_meta_graph  # noqa: F401
from ..io.graph_io import write_graph  # noqa: F401
from .adadelta import AdadeltaOptimizer  # noqa: F401
from .adagrad import AdagradDAOptimizer, AdagradOptimizer, ProximalAdagradOptimizer  # noqa: F401
from .adam import AdamOptimizer  # noqa: F401
from .basic_session_run_hooks import (CheckpointSaverHook, CheckpointSaverListener, FeedFnHook,  # noqa: F401
                                      FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
                                      NanLossDuringTrainingError, NanTensorHook, ProfilerHook, SecondOrStepTimer,
                                      StepCounterHook, StopAtStepHook, SummarySaverHook)
from .coordinator import Coordinator, LooperThread  # noqa: F401
from .clip_ops import clip_by_average_norm, clip_by_global_norm, clip_by_norm, global_norm  # noqa: F401
from .ftrl import FtrlOptimizer  # noqa: F401
from .gradient_descent import GradientDescentOptimizer, ProximalGradientDescentOptimizer  # noqa: F401
from .learning_rate_decay import (cosine_decay, cosine_decay_restarts, exponential_decay,  # noqa: F401
                                  inverse_time_decay, linear_cosine_decay, natural_exp_decay,
                                  noisy_linear_cosine_decay, piecewise_constant, piecewise_constant_decay,
                                  polynomial_decay)
from .momentum import MomentumOptimizer  # noqa: F401
from .moving_averages import ExponentialMovingAverage  # noqa: F401
from .monitored_session import (ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession,  # noqa: F401
                                Scaffold, SessionCreator, SingularMonitoredSession, WorkerSessionCreator)
from .optimizer import Optimizer  # noqa: F401
from .progress import ProgressHook  # noqa: F401
from .rmsprop import RMSPropOptimizer  # noqa: F401
from .session_manager import SessionManager  # noqa: F401
from .supervisor import Supervisor, basic_train_loop  # noqa: F401
from .sync_replicas_optimizer import SyncReplicasOptimizer  # noqa: F401
# Between-graph replication names, mapped onto Ray replicas by edgelite.distribute (importing them needs no Ray).
from ..distribute.cluster_spec import ClusterSpec  # noqa: F401
from ..distribute.device_setter import replica_device_setter  # noqa: F401
from ..distribute.server import Server  # noqa: F401
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues  # noqa: F401
from .warm_starting import warm_start  # noqa: F401
from .training_util import (assert_global_step, create_global_step, get_global_step,  # noqa: F401
                            get_or_create_global_step, global_step)
from ..summary import summary_iterator  # noqa: F401
from . import experimental  # noqa: F401
# ---- data: Example protos, queue runners and queue-based input pipelines ----
from .queue_runner import QueueRunner, add_queue_runner, start_queue_runners  # noqa: F401
from . import queue_runner  # noqa: F401
from .input import (batch, batch_join, input_producer, limit_epochs, match_filenames_once, maybe_batch,  # noqa: F401
                    maybe_batch_join, maybe_shuffle_batch, maybe_shuffle_batch_join, range_input_producer,
                    shuffle_batch, shuffle_batch_join, slice_input_producer, string_input_producer)
from ..io.example_protos import (BytesList, Example, Feature, FeatureList, FeatureLists, Features,  # noqa: F401
                                 FloatList, Int64List, SequenceExample)
