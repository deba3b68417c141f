"""tf.version: edgelite's version and the GraphDef versions it writes (tf.VERSION, tf.GRAPH_DEF_VERSION, ...)."""
from edgelite.framework.graph import (  # noqa: F401
    GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER, GRAPH_DEF_VERSION_MIN_PRODUCER,
)

from edgelite import __version__ as VERSION
GIT_VERSION = "v" + VERSION
# edgelite's native runtime is plain C built by the wheel's own toolchain: there is no C++ standard library ABI
# to report and no single monolithic binary, so these carry the values TensorFlow uses for "not applicable".
COMPILER_VERSION = "unknown"
CXX_VERSION = 0
CXX11_ABI_FLAG = 0
MONOLITHIC_BUILD = 0
