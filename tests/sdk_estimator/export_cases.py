"""train_and_evaluate with exporters and export_saved_model, shared by the fixture generator (TensorFlow) and the
edgelite test: the network of canned_cases' dnn_classifier_3 (same data, same warm-start weights), trained on rows in
order with a checkpoint every 4 steps and evaluated on every new checkpoint (throttle_secs=0); the SavedModels'
signatures and the predictions they serve are recorded."""
from __future__ import annotations

import os

try:
    from . import canned_cases
except ImportError:  # run by the generator as a top-level module
    import canned_cases

MAX_STEPS = 9
CASE = "dnn_classifier_3"


def _dims(info) -> object:
    if info.tensor_shape.unknown_rank:
        return "<unknown>"
    return [d.size for d in info.tensor_shape.dim]


def _signatures(meta_graph) -> dict:
    return {key: {"method": sig.method_name,
                  "inputs": {k: [v.dtype, _dims(v)] for k, v in sig.inputs.items()},
                  "outputs": {k: [v.dtype, _dims(v)] for k, v in sig.outputs.items()}}
            for key, sig in meta_graph.signature_def.items()}


def _serve(tf, export_dir: bytes, signature: str, feed: dict) -> tuple:
    """The SavedModel's signatures and what `signature` returns for `feed` (input key -> value)."""
    with tf.Graph().as_default(), tf.Session() as sess:
        meta_graph = tf.saved_model.loader.load(sess, ["serve"], export_dir.decode())
        sig = meta_graph.signature_def[signature]
        fetches = {k: v.name for k, v in sig.outputs.items()}
        values = sess.run(fetches, {sig.inputs[k].name: v for k, v in feed.items()})
    return _signatures(meta_graph), {k: canned_cases._plain(v) for k, v in values.items()}


def _example(tf, x_row) -> bytes:
    feature = tf.train.Feature(float_list=tf.train.FloatList(value=[float(v) for v in x_row]))
    return tf.train.Example(features=tf.train.Features(feature={"x": feature})).SerializeToString()


def run(tf, est, workdir: str) -> dict:
    """train_and_evaluate's result and exports, then one raw-tensor export of the final model."""
    d = canned_cases.data()
    features = {"x": d["x"]}
    ckpt = canned_cases.write_initial_checkpoint(tf, CASE, f"{workdir}/init/model.ckpt")
    columns = [tf.feature_column.numeric_column("x", shape=(4,))]
    estimator = est.DNNClassifier(hidden_units=[8, 5], feature_columns=columns, n_classes=3,
                                  model_dir=f"{workdir}/model", warm_start_from=ckpt,
                                  config=est.RunConfig(save_checkpoints_steps=4))
    label_key = "y3"
    parsing_fn = est.build_parsing_serving_input_receiver_fn(tf.feature_column.make_parse_example_spec(columns))
    train_spec = est.TrainSpec(est.numpy_input_fn(features, d[label_key], batch_size=canned_cases.BATCH,
                                                  num_epochs=None, shuffle=False), max_steps=MAX_STEPS)
    eval_spec = est.EvalSpec(est.numpy_input_fn(features, d[label_key], batch_size=canned_cases.BATCH,
                                                num_epochs=1, shuffle=False), steps=2, throttle_secs=0,
                             exporters=[est.LatestExporter("latest", parsing_fn, exports_to_keep=None),
                                        est.FinalExporter("final", parsing_fn)])
    metrics, exports = est.train_and_evaluate(estimator, train_spec, eval_spec)
    latest = sorted(os.listdir(f"{workdir}/model/export/latest"))
    parsed_sigs, parsed = _serve(tf, exports[1], "predict", {"examples": [_example(tf, row) for row in d["x"][:3]]})
    with tf.Graph().as_default():
        raw_fn = est.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 4], name="x_in")})
    raw_dir = estimator.export_saved_model(f"{workdir}/raw", raw_fn)
    raw_sigs, raw = _serve(tf, raw_dir, "predict", {"x": d["x"][:3]})
    return {"metrics": {k: float(v) for k, v in metrics.items()},
            "exports": [None if e is None else os.path.basename(os.path.dirname(e.decode())) for e in exports],
            "latest_count": len(latest), "export_dir_type": type(raw_dir).__name__,
            "parsing_signatures": parsed_sigs, "parsing_predict": parsed,
            "raw_signatures": raw_sigs, "raw_predict": raw}
