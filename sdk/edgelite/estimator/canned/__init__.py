"""TF1's canned estimators and the heads and export outputs they are built from."""
from .dnn import DNNClassifier, DNNRegressor  # noqa: F401
from .linear import LinearClassifier, LinearRegressor  # noqa: F401
