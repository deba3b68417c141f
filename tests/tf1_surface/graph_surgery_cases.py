"""Graph-surgery code in the style of TF1 freezing / optimize-for-inference scripts, editing GraphDef and NodeDef
protos by hand (attr as a protobuf map, repeated input fields, CopyFrom/MergeFrom, parse round trips).

Shared by fixtures/generate_graph_surgery_fixtures.py (run under TensorFlow) and test_graph_surgery.py (edgelite):
each case takes the `tf` module and returns a dict of JSON-able observations; serialized protos appear as hex.
"""
from __future__ import annotations

import numpy as np


def _hex(msg) -> str:
    return msg.SerializeToString(deterministic=True).hex()


def _dense_graph(tf):
    """x (Placeholder) -> MatMul with a Const weight -> BiasAdd -> Identity -> Relu, built node by node."""
    gd = tf.GraphDef()
    x = gd.node.add()
    x.name, x.op = "x", "Placeholder"
    x.attr["dtype"].type = tf.float32.as_datatype_enum
    x.attr["shape"].shape.dim.add(size=-1)
    x.attr["shape"].shape.dim.add(size=3)
    w = tf.NodeDef(name="w", op="Const", attr={
        "dtype": tf.AttrValue(type=tf.float32.as_datatype_enum),
        "value": tf.AttrValue(tensor=tf.make_tensor_proto(np.arange(6, dtype=np.float32).reshape(3, 2) - 2.5))})
    b = tf.NodeDef(name="b", op="Const")
    b.attr["dtype"].CopyFrom(w.attr["dtype"])
    b.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(np.array([0.5, -1.0], np.float32)))
    mm = tf.NodeDef(name="mm", op="MatMul", input=["x", "w"],
                    attr={"T": {"type": tf.float32.as_datatype_enum}, "transpose_a": tf.AttrValue(b=False)})
    mm.attr["transpose_b"].b = False
    add = tf.NodeDef(name="add", op="BiasAdd", input=["mm", "b"])
    add.attr["T"].CopyFrom(mm.attr["T"])
    add.attr["data_format"].s = b"NHWC"
    ident = tf.NodeDef(name="ident", op="Identity", input=["add"], attr={"T": mm.attr["T"]})
    relu = tf.NodeDef(name="out", op="Relu", input=["ident"], attr={"T": mm.attr["T"]})
    gd.node.extend([w, b, mm, add, ident, relu])
    return gd


def build_by_hand(tf):
    """Building nodes with add(), keyword construction, dict-valued attrs and CopyFrom gives TF's bytes."""
    gd = _dense_graph(tf)
    mm = gd.node[3]
    return {"graph": _hex(gd), "mm_attr_keys": sorted(mm.attr.keys()), "mm_len": len(mm.attr),
            "has_T": "T" in mm.attr, "has_U": "U" in mm.attr, "get_missing": mm.attr.get("U") is None,
            "still_no_U": "U" not in mm.attr, "items": sorted((k, v.WhichOneof("value")) for k, v in mm.attr.items())}


def read_creates_entry(tf):
    """Reading a missing attr key adds an empty AttrValue, as protobuf's map does; deleting removes it."""
    node = tf.NodeDef(name="n", op="NoOp")
    empty = node.attr["missing"]
    after_read = (len(node.attr), "missing" in node.attr, empty.WhichOneof("value"), _hex(node))
    node.attr.get_or_create("other").i = 7
    del node.attr["missing"]
    node.attr["more"].s = b"v"
    return {"after_read": list(after_read), "keys": sorted(node.attr), "node": _hex(node),
            "values": sorted(str(v.WhichOneof("value")) for v in node.attr.values())}


def rename_input_and_strip_identity(tf):
    """The optimize-for-inference edit: rename the input, bypass the Identity, copy the rest to a new GraphDef."""
    gd = _dense_graph(tf)
    out = tf.GraphDef()
    for node in gd.node:
        if node.op == "Identity":
            continue
        new = tf.NodeDef()
        new.CopyFrom(node)
        if new.name == "x":
            new.name = "input"
        inputs = ["input" if i == "x" else ("add" if i == "ident" else i) for i in new.input]
        del new.input[:]
        new.input.extend(inputs)
        for key in [k for k in new.attr if k in ("transpose_a", "data_format")]:
            del new.attr[key]
        out.node.extend([new])
    parsed = tf.GraphDef()
    parsed.ParseFromString(out.SerializeToString())
    return {"graph": _hex(out), "round_trip_equal": parsed == out, "names": [n.name for n in parsed.node],
            "relu_inputs": list(parsed.node[-1].input)}


def merge_and_clear(tf):
    """Message and map MergeFrom (a key in both takes the other's value), ClearField, equality of maps."""
    a = tf.NodeDef(name="a", op="Cast", input=["x"], attr={"SrcT": tf.AttrValue(type=3), "Truncate": {"b": True}})
    b = tf.NodeDef(name="b", device="/cpu:0", input=["y"], attr={"SrcT": tf.AttrValue(type=1), "DstT": {"type": 9}})
    merged = tf.NodeDef()
    merged.CopyFrom(a)
    merged.MergeFrom(b)
    map_merged = tf.NodeDef(attr={"SrcT": {"i": 4}})
    map_merged.attr.MergeFrom(b.attr)
    cleared = tf.NodeDef()
    cleared.CopyFrom(merged)
    cleared.ClearField("attr")
    same = tf.NodeDef(attr={"SrcT": tf.AttrValue(type=1), "DstT": tf.AttrValue(type=9)})
    return {"merged": _hex(merged), "map_merged": _hex(map_merged), "cleared": _hex(cleared),
            "maps_equal": same.attr == b.attr, "maps_differ": same.attr != a.attr,
            "messages_equal": tf.NodeDef(attr=dict(b.attr)) == tf.NodeDef(attr={"DstT": {"type": 9},
                                                                             "SrcT": {"type": 1}})}


def replace_constant_and_run(tf):
    """Freeze-by-hand: swap a Const's value through make_tensor_proto/make_ndarray, import the edited graph and
    run it."""
    gd = _dense_graph(tf)
    w = next(n for n in gd.node if n.name == "w")
    old = tf.make_ndarray(w.attr["value"].tensor)
    w.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(old * 2.0))
    relu = gd.node[-1]
    relu.op = "Relu6"
    edited = _hex(gd)  # before import: TensorFlow's import_graph_def writes default attrs into the GraphDef it gets
    data = np.array([[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]], np.float32)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="feed")
        out, = tf.import_graph_def(gd, input_map={"x:0": x}, return_elements=["out:0"], name="imported")
        with tf.Session(graph=g) as sess:
            value = sess.run(out, {x: data})
    return {"graph": edited, "old": old.tolist(), "out": value.tolist(), "op": out.op.type}


def config_and_signature_maps(tf):
    """Scalar maps (ConfigProto.device_count) and message maps (MetaGraphDef.signature_def and its nested
    inputs/outputs, collection_def) behave alike."""
    config = tf.ConfigProto()
    gpu = config.device_count["GPU"]
    config.device_count["CPU"] = 2
    meta = tf.MetaGraphDef()
    sig = meta.signature_def["serving_default"]
    sig.method_name = "tensorflow/serving/predict"
    sig.inputs["x"].name = "x:0"
    sig.outputs["y"].name = "out:0"
    meta.collection_def["train_op"].node_list.value.append("train")
    meta.collection_def["losses"].node_list.value.extend(["loss:0", "reg:0"])
    return {"gpu": gpu, "device_count": sorted(config.device_count.items()), "config": _hex(config),
            "meta": _hex(meta), "signature_keys": sorted(meta.signature_def),
            "collections": sorted((k, list(v.node_list.value)) for k, v in meta.collection_def.items())}


def oneof_and_presence(tf):
    """Writing into an unset sub-message sets it (even when empty) and replaces the other member of the oneof:
    a scalar Placeholder's `shape {}`, an attr switched from type to tensor or list."""
    scalar = tf.NodeDef(name="s", op="Placeholder")
    scalar.attr["dtype"].type = tf.int32.as_datatype_enum
    scalar.attr["shape"].shape.CopyFrom(tf.TensorShape([]).as_proto())
    partial = tf.AttrValue()
    partial.shape.CopyFrom(tf.TensorShape([None, 4]).as_proto())
    flag = tf.AttrValue()
    flag.shape.unknown_rank = False
    switched = tf.AttrValue(type=tf.float32.as_datatype_enum)
    switched.tensor.dtype = tf.float32.as_datatype_enum
    listed = tf.AttrValue(i=5)
    listed.list.i.append(3)
    touched = tf.AttrValue(s=b"x")
    touched.list.SetInParent()
    read_only = tf.AttrValue(b=True)
    read_only.func.name  # reading leaves the oneof alone
    return {"scalar": _hex(scalar), "scalar_shape_text": str(scalar.attr["shape"]),
            "switched_text": str(switched), "mm_text": str(tf.NodeDef(name="mm", op="MatMul", input=["x", "w"])), "partial": _hex(partial), "flag": _hex(flag), "switched": _hex(switched),
            "switched_which": switched.WhichOneof("value"), "listed": _hex(listed), "touched": _hex(touched),
            "read_only": _hex(read_only), "read_only_which": read_only.WhichOneof("value")}


def prune_for_inference(tf):
    """graph_util's pruning on a hand-built GraphDef: extract_sub_graph drops nodes the output does not need,
    remove_training_nodes bypasses the Identity (the input map keeps working on the pruned result)."""
    gd = _dense_graph(tf)
    gd.node.add(name="unused", op="Const").attr["dtype"].type = tf.int32.as_datatype_enum
    gd.node[-1].attr["value"].tensor.CopyFrom(tf.make_tensor_proto(np.int32(3)))
    sub = tf.graph_util.extract_sub_graph(gd, ["out"])
    pruned = tf.graph_util.remove_training_nodes(sub, protected_nodes=["x"])
    return {"sub": _hex(sub), "pruned": _hex(pruned), "pruned_names": [n.name for n in pruned.node],
            "source_untouched": len(gd.node)}


CASES = [build_by_hand, read_creates_entry, rename_input_and_strip_identity, merge_and_clear,
         replace_constant_and_run, config_and_signature_maps, oneof_and_presence,
         prune_for_inference]
