"""Each executor test builds its graph in a fresh default graph."""
import pytest

import edgelite as tf


@pytest.fixture(autouse=True)
def own_graph():
    with tf.Graph().as_default() as g:
        yield g
