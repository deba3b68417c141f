"""TensorFlow Lite Micro's signal-library custom ops (audio front ends), built into edgelite."""
