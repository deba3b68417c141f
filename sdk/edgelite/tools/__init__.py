"""TensorFlow's graph tools (tensorflow/python/tools) that TF1 scripts call from Python: freeze_graph."""
