"""TF1's canned estimators and the heads they are built from."""
from .baseline import BaselineClassifier, BaselineRegressor  # noqa: F401
from .dnn import DNNClassifier, DNNRegressor  # noqa: F401
from .dnn_linear_combined import DNNLinearCombinedClassifier, DNNLinearCombinedRegressor  # noqa: F401
from .linear import LinearClassifier, LinearRegressor  # noqa: F401
