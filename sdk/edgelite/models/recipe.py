"""What a model recipe is: a network builder, its data and a training configuration, and the graphs built from them.

A recipe builds two graphs from the same network function, so their variable names match and a checkpoint
written while training restores into the inference graph the converter freezes:

- `build_training()`: placeholders, the network in training mode behind an `is_training` switch (batch norm and
  dropout), the loss, an optimizer step with the global step, an epoch counter and a Saver for everything.
- `build_inference()`: a static-shape input (batch 1 by default, as the Edge TPU compiler wants), the network in
  inference mode and a named output (softmax probabilities for classifiers).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

import edgelite as tf
import edgelite.train  # noqa: F401  (tf.train)


@dataclass(frozen=True)
class TrainConfig:
    """How a recipe trains: epochs, batch size, optimizer and a per-epoch exponential learning-rate decay."""

    epochs: int
    batch_size: int
    optimizer: str = "adam"
    learning_rate: float = 1e-3
    decay_per_epoch: float = 1.0
    momentum: float = 0.9

    def __post_init__(self) -> None:
        if self.optimizer not in ("adam", "momentum", "sgd"):
            raise ValueError(f"optimizer must be 'adam', 'momentum' or 'sgd', got {self.optimizer!r}")
        if self.epochs < 1 or self.batch_size < 1:
            raise ValueError("epochs and batch_size must be positive")


@dataclass
class Dataset:
    """A train/test split; `synthetic` datasets are shape-correct stand-ins, not real recordings or images."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    source: str
    synthetic: bool


@dataclass
class TrainingGraph:
    """The pieces of a recipe's training graph."""

    graph: Any
    x: Any
    labels: Any
    is_training: Any
    outputs: Any
    loss: Any
    train_op: Any
    global_step: Any
    epoch: Any
    next_epoch: Any
    learning_rate: Any
    init: Any
    saver: Any


@dataclass
class InferenceGraph:
    """The pieces of a recipe's inference graph: what the converter takes."""

    graph: Any
    x: Any
    outputs: Any
    saver: Any


@dataclass
class Recipe:
    """A model recipe: `network(x, is_training)` returns logits (classifiers) or the reconstruction (autoencoders)."""

    name: str
    description: str
    input_shape: Tuple[int, ...]
    task: str
    num_outputs: int
    network: Callable[[Any, Any], Any]
    config: TrainConfig
    data: Callable[[int], Dataset]
    params: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.task not in ("classification", "reconstruction"):
            raise ValueError(f"task must be 'classification' or 'reconstruction', got {self.task!r}")

    def _labels(self) -> Any:
        if self.task == "classification":
            return tf.placeholder(tf.int64, [None], name="labels")
        return tf.placeholder(tf.float32, [None, *self.input_shape], name="targets")

    def _loss(self, labels: Any, outputs: Any) -> Any:
        if self.task == "classification":
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=outputs))
        else:
            loss = tf.reduce_mean(tf.squared_difference(outputs, labels))
        regularization = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        return tf.add_n([loss] + regularization, name="loss") if regularization else tf.identity(loss, name="loss")

    def _optimizer(self, learning_rate: Any) -> Any:
        cfg = self.config
        if cfg.optimizer == "adam":
            return tf.train.AdamOptimizer(learning_rate)
        if cfg.optimizer == "momentum":
            return tf.train.MomentumOptimizer(learning_rate, cfg.momentum)
        return tf.train.GradientDescentOptimizer(learning_rate)

    def build_training(self, seed: int = 0, max_to_keep: int = 3,
                       wrap_optimizer: Optional[Callable[[Any], Any]] = None) -> TrainingGraph:
        """The training graph: network in training mode, loss, optimizer step, epoch counter and Saver.

        `wrap_optimizer(opt)` may replace the recipe's optimizer, e.g. by a SyncReplicasOptimizer around it.
        """
        graph = tf.Graph()
        with graph.as_default():
            tf.set_random_seed(seed)
            x = tf.placeholder(tf.float32, [None, *self.input_shape], name="input")
            labels = self._labels()
            is_training = tf.placeholder_with_default(False, [], name="is_training")
            outputs = self.network(x, is_training)
            loss = self._loss(labels, outputs)
            global_step = tf.train.get_or_create_global_step()
            with tf.variable_scope("training"):
                epoch = tf.get_variable("epoch", [], tf.int64, initializer=tf.zeros_initializer(), trainable=False)
            next_epoch = tf.assign_add(epoch, 1)
            learning_rate = tf.constant(self.config.learning_rate, tf.float32) * tf.pow(
                tf.constant(self.config.decay_per_epoch, tf.float32), tf.cast(epoch, tf.float32))
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                optimizer = self._optimizer(learning_rate)
                if wrap_optimizer is not None:
                    optimizer = wrap_optimizer(optimizer)
                train_op = optimizer.minimize(loss, global_step=global_step)
            init = tf.global_variables_initializer()
            saver = tf.train.Saver(max_to_keep=max_to_keep)
        return TrainingGraph(graph, x, labels, is_training, outputs, loss, train_op, global_step, epoch,
                             next_epoch, learning_rate, init, saver)

    def build_inference(self, batch_size: Optional[int] = 1) -> InferenceGraph:
        """The inference graph: a fixed-shape input, the network in inference mode and a named output."""
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, [batch_size, *self.input_shape], name="input")
            outputs = self.network(x, False)
            if self.task == "classification":
                outputs = tf.nn.softmax(outputs, name="probabilities")
            else:
                outputs = tf.identity(outputs, name="reconstruction")
            saver = tf.train.Saver(tf.global_variables())
        return InferenceGraph(graph, x, outputs, saver)

    def metric_name(self) -> str:
        """'accuracy' for classifiers, 'mse' (mean squared reconstruction error) for autoencoders."""
        return "accuracy" if self.task == "classification" else "mse"

    def metric(self, outputs: np.ndarray, targets: np.ndarray) -> float:
        """The recipe's evaluation metric of network outputs (logits or probabilities) against targets."""
        outputs = np.asarray(outputs, dtype=np.float32)
        if self.task == "classification":
            return float(np.mean(np.argmax(outputs.reshape(len(targets), -1), axis=1) == targets))
        return float(np.mean((outputs.reshape(targets.shape) - targets) ** 2))
