"""Keras BatchNormalization: edgelite.layers' batch norm whose `training` defaults to the learning phase."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.layers import normalization as tf_norm

from .. import initializers, regularizers
from ..engine.base_layer import Layer
from .core import _name_of


class BatchNormalization(Layer, tf_norm.BatchNormalization):
    """Batch statistics while training (moving averages updated by fit), moving statistics otherwise."""

    supports_masking = True

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 moving_mean_initializer: Any = "zeros", moving_variance_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, fused: Optional[bool] = None, **kwargs: Any) -> None:
        Layer._keras_init(tf_norm.BatchNormalization.__init__, self, axis=axis, momentum=momentum, epsilon=epsilon,
                          center=center, scale=scale, beta_initializer=initializers.get(beta_initializer),
                          gamma_initializer=initializers.get(gamma_initializer),
                          moving_mean_initializer=initializers.get(moving_mean_initializer),
                          moving_variance_initializer=initializers.get(moving_variance_initializer),
                          beta_regularizer=regularizers.get(beta_regularizer),
                          gamma_regularizer=regularizers.get(gamma_regularizer), beta_constraint=beta_constraint,
                          gamma_constraint=gamma_constraint, fused=fused, **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), axis=[self.axis], momentum=self.momentum, epsilon=self.epsilon,
                    center=self.center, scale=self.scale, beta_initializer=_name_of(self.beta_initializer),
                    gamma_initializer=_name_of(self.gamma_initializer),
                    moving_mean_initializer=_name_of(self.moving_mean_initializer),
                    moving_variance_initializer=_name_of(self.moving_variance_initializer),
                    beta_regularizer=_name_of(self.beta_regularizer),
                    gamma_regularizer=_name_of(self.gamma_regularizer), beta_constraint=None, gamma_constraint=None)
