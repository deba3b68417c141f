"""Graph, Operation, Tensor, DType, TensorShape, DeviceSpec and scoping semantics (seed 004)."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import edgelite as tf
from edgelite.framework import op_def_registry
from edgelite.framework import ops


# ---- DType --------------------------------------------------------------------------------------------
def test_dtype_properties():
    assert tf.float32.name == "float32" and tf.float32.as_datatype_enum == 1
    assert tf.float32.as_ref.name == "float32_ref" and tf.float32.as_ref.base_dtype == tf.float32
    assert tf.float32.is_compatible_with(tf.float32.as_ref)
    assert not tf.float32.as_ref.is_compatible_with(tf.float32)
    assert tf.float32.as_ref.is_compatible_with(tf.float32.as_ref)
    assert tf.int8.max == 127 and tf.uint8.min == 0 and tf.float16.max == np.finfo(np.float16).max
    assert tf.qint8.is_quantized and not tf.qint8.is_integer and not tf.qint8.is_unsigned
    assert tf.uint16.is_unsigned and not tf.int16.is_unsigned
    assert tf.complex64.real_dtype == tf.float32 and tf.complex128.is_complex
    assert tf.float64.size == 8 and tf.as_dtype(np.float16) == tf.float16
    assert tf.as_dtype("double") == tf.float64 and tf.as_dtype(9) == tf.int64
    assert tf.as_dtype(bool) == tf.bool and tf.as_dtype(np.bool_) == tf.bool
    with pytest.raises(TypeError):
        tf.as_dtype("nope")
    with pytest.raises(TypeError):
        tf.bool.max
    with pytest.raises(TypeError):
        tf.DType(500)


# ---- TensorShape / Dimension ------------------------------------------------------------------------------
def test_dimension_merge_rules():
    d = tf.Dimension
    assert d(3).merge_with(d(3)).value == 3
    assert d(3).merge_with(None).value == 3
    assert d(None).merge_with(d(None)).value is None
    with pytest.raises(ValueError):
        d(3).merge_with(4)
    assert d(None).is_compatible_with(5) and not d(2).is_compatible_with(3)
    with pytest.raises(ValueError):
        d(-1)
    with pytest.raises(TypeError):
        d(1.5)


def test_tensor_shape_rules():
    s = tf.TensorShape([32, 784])
    assert s.is_compatible_with([None, 784]) and s.is_compatible_with(tf.TensorShape(None))
    assert not s.is_compatible_with([32, 784, 1])
    assert tf.TensorShape([None, 784]).merge_with([32, None]).as_list() == [32, 784]
    with pytest.raises(ValueError):
        s.merge_with([33, 784])
    assert s.num_elements() == 32 * 784 and tf.TensorShape([None, 3]).num_elements() is None
    assert s.concatenate([2]).as_list() == [32, 784, 2]
    assert tf.TensorShape(None).ndims is None and tf.TensorShape(None).concatenate([1]).ndims is None
    with pytest.raises(ValueError):
        tf.TensorShape(None).as_list()
    with pytest.raises(ValueError):
        s.with_rank(3)
    assert tf.TensorShape(None).with_rank(2).as_list() == [None, None]
    with pytest.raises(ValueError):
        s.with_rank_at_least(3)
    with pytest.raises(ValueError):
        s.with_rank_at_most(1)
    with pytest.raises(ValueError):
        tf.TensorShape([None]).assert_is_fully_defined()
    assert tf.TensorShape(5).as_list() == [5]
    assert str(tf.TensorShape([None, 3])) == "(?, 3)" and s[1].value == 784 and s[1:].as_list() == [784]
    with pytest.raises(TypeError):
        tf.TensorShape("ab")


# ---- names and scopes -----------------------------------------------------------------------------------
def test_unique_name_and_mark_as_used():
    g = tf.get_default_graph()
    assert g.unique_name("foo", mark_as_used=False) == "foo"
    assert g.unique_name("foo") == "foo"
    assert g.unique_name("foo") == "foo_1"
    assert g.unique_name("foo_1") == "foo_1_1"
    with g.name_scope("s"):
        assert g.unique_name("x") == "s/x"


def test_name_scope_validation():
    with pytest.raises(ValueError):
        with tf.name_scope("_bad"):
            pass
    with tf.name_scope("ok"):
        with tf.name_scope("_fine_inside") as s:
            assert s == "ok/_fine_inside/"
    with pytest.raises(ValueError):
        tf.constant(1.0, name="bad name")


def test_name_scope_with_values_and_default_name():
    with tf.name_scope(None, "Default", []) as s:
        assert s == "Default/"
    with tf.name_scope(None, "Default", []) as s:
        assert s == "Default_1/"
    with tf.op_scope([], None, "op") as s:
        assert s == "op/"
    with pytest.raises(ValueError):
        with tf.op_scope([], None):
            pass
    g2 = tf.Graph()
    with g2.as_default():
        t = tf.constant(1.0)
    with tf.name_scope("other", values=[t]) as s:
        assert tf.get_default_graph() is g2 and s == "other/"
    assert tf.get_default_graph() is not g2


def test_lookup_by_name_and_graph_elements():
    g = tf.get_default_graph()
    c = tf.constant([1, 2], name="c")
    assert g.get_operation_by_name("c") is c.op
    assert g.get_tensor_by_name("c:0") is c
    assert g.as_graph_element("c") is c.op and g.as_graph_element(c) is c
    with pytest.raises(KeyError):
        g.get_operation_by_name("missing")
    with pytest.raises(KeyError):
        g.get_tensor_by_name("c:1")
    with pytest.raises(ValueError):
        g.get_tensor_by_name("c")
    with pytest.raises(ValueError):
        g.as_graph_element("c:x")
    with pytest.raises(TypeError):
        g.as_graph_element(3.0)
    with pytest.raises(TypeError):
        g.get_tensor_by_name(3)
    other = tf.Graph()
    with pytest.raises(ValueError):
        other.as_graph_element(c)


def test_operation_and_tensor_properties():
    a = tf.placeholder(tf.float32, [None, 3], name="a")
    b = tf.matmul(a, tf.ones([3, 2]), name="mm")
    op = b.op
    assert op.type == "MatMul" and op.name == "mm" and op.get_attr("transpose_a") is False
    assert op.get_attr("T") == tf.float32 and [t.name for t in op.inputs] == ["a:0", "ones:0"]
    assert b.value_index == 0 and b.graph is tf.get_default_graph() and b.dtype == tf.float32
    assert b.shape.as_list() == [None, 2] and b.get_shape() == b.shape
    assert a.consumers() == [op]
    with pytest.raises(ValueError):
        op.get_attr("nope")
    assert op.node_def.input == ["a", "ones"] and op.node_def.op == "MatMul"
    with pytest.raises(TypeError):
        bool(b)
    with pytest.raises(TypeError):
        iter(b)
    assert b != a and b == b and len({a, b}) == 2
    with pytest.raises(ValueError):
        tf.matmul(a, tf.ones([4, 2]))


def test_set_shape_merges():
    p = tf.placeholder(tf.uint8, [None, None, 3])
    p.set_shape([28, 28, 3])
    assert p.shape.as_list() == [28, 28, 3]
    with pytest.raises(ValueError):
        p.set_shape([28, 28, 4])


def test_graph_version_and_operations_list():
    g = tf.Graph()
    assert g.version == 0
    with g.as_default():
        a = tf.constant(1.0)
        b = a + 1.0
    assert g.version == 3 and [o.name for o in g.get_operations()] == ["Const", "add/y", "add"]
    del b


def test_finalize_blocks_new_ops():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
        g.finalize()
        assert g.finalized
        with pytest.raises(RuntimeError):
            tf.constant(2.0)
        with pytest.raises(RuntimeError):
            tf.add_to_collection("x", 1)


def test_default_graph_is_per_thread():
    g = tf.Graph()
    seen = {}
    with g.as_default():
        def worker():
            seen["graph"] = tf.get_default_graph()
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen["graph"] is not g


def test_reset_default_graph_inside_nested_graph_fails():
    with pytest.raises(AssertionError):
        tf.reset_default_graph()


def test_reset_default_graph_gives_new_graph():
    import edgelite.framework.graph as graph_mod
    stack = graph_mod._default_graph_stack.stack
    saved = list(stack)
    stack.clear()
    try:
        before = tf.get_default_graph()
        tf.reset_default_graph()
        assert tf.get_default_graph() is not before
    finally:
        stack.extend(saved)


# ---- collections -------------------------------------------------------------------------------------------
def test_collections():
    class Named:
        def __init__(self, name):
            self.name = name

    a, b, c = Named("scope/a"), Named("other/b"), Named("scope2/c")
    tf.add_to_collection("things", a)
    tf.add_to_collections(["things", "more", "things"], b)
    tf.add_to_collections("things", c)
    tf.add_to_collection("things", 5)
    assert tf.get_collection("things") == [a, b, c, 5]
    assert tf.get_collection("things", scope="scope") == [a, c]
    assert tf.get_collection("things", scope="scope/") == [a]
    assert tf.get_collection("more") == [b]
    ref = tf.get_collection_ref("things")
    ref.append(6)
    assert tf.get_collection("things")[-1] == 6
    copy = tf.get_collection("things")
    copy.append(7)
    assert 7 not in tf.get_collection("things")
    assert set(tf.get_default_graph().get_all_collection_keys()) >= {"things", "more"}
    assert tf.get_collection("none") == []


# ---- control dependencies, devices, colocation, containers -----------------------------------------------------
def test_control_dependencies_rules():
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        c = tf.identity(b)
        with tf.control_dependencies([b.op]):
            d = tf.identity(b)
            with tf.control_dependencies(None):
                e = tf.identity(b)
        f = c + 1.0
    assert c.op.control_inputs == [a.op]
    assert d.op.control_inputs == [a.op]
    assert e.op.control_inputs == []
    assert f.op.control_inputs == []
    with pytest.raises(TypeError):
        tf.control_dependencies([1.0])


def test_device_scopes():
    with tf.device("/cpu:0"):
        a = tf.constant(1.0)
        with tf.device("/job:ps/task:1"):
            b = tf.constant(1.0)
            with tf.device(None):
                c = tf.constant(1.0)
        with tf.device(lambda op: "/device:GPU:1" if op.type == "Const" else ""):
            d = tf.constant(1.0)
    assert a.device == "/device:CPU:0"
    assert b.device == "/job:ps/task:1/device:CPU:0"
    assert c.device == "" and d.device == "/device:GPU:1"
    spec = tf.DeviceSpec.from_string("/job:worker/replica:0/task:2/device:GPU:3")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == ("worker", 0, 2, "GPU", 3)
    assert spec.to_string() == "/job:worker/replica:0/task:2/device:GPU:3"
    spec.merge_from(tf.DeviceSpec(job="ps"))
    assert spec.job == "ps"
    with pytest.raises(ValueError):
        tf.DeviceSpec.from_string("/foo:bar")


def test_colocate_with_and_container():
    a = tf.constant(1.0, name="anchor")
    with tf.colocate_with(a):
        b = tf.constant(2.0)
    assert b.op.colocation_groups() == [b"loc:@anchor"] and a.op.colocation_groups() == [b"loc:@anchor"]
    with pytest.raises(ValueError):
        with tf.colocate_with(None):
            pass
    with tf.container("experiment0"):
        v = tf.Variable(1.0)
    assert v.op.get_attr("container") == "experiment0"


def test_gradient_override_map():
    @tf.RegisterGradient("CustomSquareForTest")
    def _custom(op, grad):
        return grad * 10.0

    x = tf.constant(3.0)
    with tf.get_default_graph().gradient_override_map({"Square": "CustomSquareForTest"}):
        y = tf.square(x)
    assert y.op.get_attr("_gradient_op_type") == "CustomSquareForTest"
    g = tf.gradients(y, x)[0]
    with tf.Session() as s:
        assert s.run(g) == 10.0
    with pytest.raises(TypeError):
        with tf.get_default_graph().gradient_override_map({"Square": 1}):
            pass


def test_feedable_and_fetchable():
    g = tf.get_default_graph()
    p = tf.placeholder(tf.float32, [])
    y = p * 2.0
    g.prevent_feeding(y)
    g.prevent_fetching(y.op)
    assert not g.is_feedable(y) and g.is_feedable(p) and not g.is_fetchable(y)
    with tf.Session() as s:
        with pytest.raises(ValueError):
            s.run(y * 1.0, {y: 1.0})
        with pytest.raises(ValueError):
            s.run(y, {p: 1.0})


# ---- conversion and registries ------------------------------------------------------------------------------
def test_convert_to_tensor_dtype_inference():
    assert tf.convert_to_tensor(1.0).dtype == tf.float32
    assert tf.convert_to_tensor(1).dtype == tf.int32
    assert tf.convert_to_tensor(2 ** 40).dtype == tf.int64
    assert tf.convert_to_tensor(np.float64(1.0)).dtype == tf.float64
    assert tf.convert_to_tensor([1, 2.5]).dtype == tf.float32
    assert tf.convert_to_tensor(True).dtype == tf.bool
    assert tf.convert_to_tensor("s").dtype == tf.string
    assert tf.convert_to_tensor(1, dtype=tf.float64).dtype == tf.float64
    with pytest.raises(TypeError):
        tf.convert_to_tensor(1.5, dtype=tf.int32)
    t = tf.constant(1.0)
    assert tf.convert_to_tensor(t) is t
    with pytest.raises(ValueError):
        tf.convert_to_tensor(t, dtype=tf.int32)
    packed = tf.convert_to_tensor([t, 2.0])
    assert packed.op.type == "Pack" and packed.shape.as_list() == [2]
    assert tf.convert_to_tensor(tf.TensorShape([2, 3])).dtype == tf.int32
    with pytest.raises(ValueError):
        tf.convert_to_tensor(tf.TensorShape([None, 3]))
    with pytest.raises(TypeError):
        tf.convert_to_tensor(object())


def test_register_tensor_conversion_function_priority():
    class Box:
        def __init__(self, v):
            self.v = v

    calls = []

    def late(value, dtype=None, name=None, as_ref=False):
        calls.append("late")
        return tf.constant(value.v, dtype=dtype, name=name)

    def early(value, dtype=None, name=None, as_ref=False):
        calls.append("early")
        return NotImplemented

    tf.register_tensor_conversion_function(Box, late, priority=200)
    tf.register_tensor_conversion_function(Box, early, priority=10)
    t = tf.convert_to_tensor(Box(4.0))
    assert calls == ["early", "late"]
    with tf.Session() as s:
        assert s.run(t) == 4.0
    with pytest.raises(TypeError):
        tf.register_tensor_conversion_function(3, late)


def test_register_shape_overrides_inference():
    op_def_registry.register_op("TestShapeOverride", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: x)

    @tf.RegisterShape("TestShapeOverride")
    def _shape(op):
        return [tf.TensorShape([7])]

    y = ops.apply_op("TestShapeOverride", [[1.0, 2.0]])
    assert y.shape.as_list() == [7]


def test_no_gradient_and_lookup_error():
    op_def_registry.register_op("TestNoGradOp", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: x * 2)
    op_def_registry.register_op("TestNoneGradOp", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: x)
    tf.NoGradient("TestNoneGradOp")
    x = tf.constant([1.0])
    y = ops.apply_op("TestNoGradOp", [x], name="nograd")
    with pytest.raises(LookupError, match=r"No gradient defined for operation 'nograd' \(op type: TestNoGradOp\)"):
        tf.gradients(y, x)
    assert tf.gradients(ops.apply_op("TestNoneGradOp", [x]), x) == [None]
    with pytest.raises(TypeError):
        tf.NoGradient(3)


def test_apply_op_type_checks():
    with pytest.raises(TypeError, match="allowed values"):
        tf.sqrt(tf.constant([1, 2]))
    with pytest.raises(TypeError):
        tf.add(tf.constant(1.0), tf.constant(1))


def test_get_seed_rules():
    g = tf.Graph()
    with g.as_default():
        assert tf.get_seed(None) == (None, None)
        assert tf.get_seed(3) == (87654321, 3)
        tf.set_random_seed(5)
        assert tf.get_seed(None) == (5, 0)
        assert tf.get_seed(None) == (5, 1)
        assert tf.get_seed(9) == (5, 9)
        tf.set_random_seed(0)
        assert tf.get_seed(0) == (0, 2 ** 31 - 1)


def test_tensor_eval_and_operation_run_use_default_session():
    v = tf.Variable(2.0)
    with tf.Session() as sess:
        v.initializer.run()
        assert (v * 3.0).eval() == 6.0
        assert v.eval(session=sess) == 2.0
    with pytest.raises(ValueError):
        (v * 1.0).eval()


def test_as_graph_def_round_trips_through_the_wire_format():
    from edgelite.framework.graph_def import GraphDef
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    with tf.device("/cpu:0"):
        y = tf.matmul(x, w, transpose_b=False, name="y")
    g = tf.get_default_graph()
    version = g.version
    z = tf.identity(y, name="z")
    gd = GraphDef.FromString(g.as_graph_def(add_shapes=True).SerializeToString())
    names = [n.name for n in gd.node]
    assert names == [op.name for op in g.get_operations()]
    node = gd.node[names.index("y")]
    assert node.op == "MatMul" and list(node.input) == ["x", "w/read"] and node.device == "/device:CPU:0"
    attrs = dict(node.attr)
    assert attrs["T"].type == tf.float32.as_datatype_enum and attrs["transpose_b"].b is False
    assert [d.size for d in attrs["_output_shapes"].list.shape[0].dim] == [-1, 2]
    const = gd.node[names.index("w/initial_value")]
    tensor = const.attr["value"].tensor
    assert np.frombuffer(tensor.tensor_content, np.float32).tolist() == [1.0] * 6
    assert gd.versions.producer == 561
    newer = g.as_graph_def(from_version=version)
    assert [n.name for n in newer.node] == ["z"]
    del z


def test_dimensions_inside_lists_convert_to_ints():
    x = tf.placeholder(tf.float32, [None, 4, 5])
    flat = tf.reshape(x, [-1, x.shape[1] * x.shape[2]])
    assert flat.shape.as_list() == [None, 20]
    with pytest.raises(ValueError):
        tf.constant([x.shape[0]])
