"""tf.estimator.export (TF1): serving input receivers and the outputs an exported model serves."""
from .export_output import ClassificationOutput, ExportOutput, PredictOutput, RegressionOutput  # noqa: F401
from .serving_input import (ServingInputReceiver, TensorServingInputReceiver,  # noqa: F401
                            build_parsing_serving_input_receiver_fn, build_raw_serving_input_receiver_fn)
