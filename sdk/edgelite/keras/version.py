"""The Keras API version edgelite.keras follows (written to the keras_version attribute of .h5 files)."""
KERAS_VERSION = "2.21.0"
