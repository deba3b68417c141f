"""tf.compat.v1.metrics: streaming metrics whose state lives in local variables (LOCAL_VARIABLES and
METRIC_VARIABLES), each returning a (value, update_op) pair."""
from .class_metrics import mean_iou, mean_per_class_accuracy  # noqa: F401
from .count_metrics import false_negatives, false_positives, precision, recall, true_negatives  # noqa: F401
from .count_metrics import true_positives  # noqa: F401
from .mean_metrics import (  # noqa: F401
    accuracy, mean, mean_absolute_error, mean_cosine_distance, mean_relative_error, mean_squared_error, mean_tensor,
    percentage_below, root_mean_squared_error,
)
from .threshold_metrics import (  # noqa: F401
    auc, false_negatives_at_thresholds, false_positives_at_thresholds, precision_at_thresholds,
    recall_at_thresholds, sensitivity_at_specificity, specificity_at_sensitivity, true_negatives_at_thresholds,
    true_positives_at_thresholds,
)
from .topk_metrics import (  # noqa: F401
    average_precision_at_k, precision_at_k, precision_at_top_k, recall_at_k, recall_at_top_k,
    sparse_average_precision_at_k, sparse_precision_at_k,
)
