"""Seeded RandomShuffleQueue, tf.random.shuffle and shuffling input pipelines, shared by the TensorFlow fixture
generator (fixtures/generate_tf_shuffle_queues.py, recorded into fixtures/tf_shuffle_queues.json) and the edgelite
tests. Every case is one whose order TensorFlow fixes: one enqueuing thread, and each dequeue of a pipeline issued
only once its shuffling queue is full or closed (run_settled), so the queue holds the same elements in both."""
from __future__ import annotations

import time

from .result_codec import encode, error_core

SETTLE_TIMEOUT = 20.0


# ---- RandomShuffleQueue step by step (run with result_codec.run_steps) ----------------------------------------
def _steps_mixed(tf):
    q = tf.RandomShuffleQueue(50, 5, tf.int32, shapes=[[]], seed=3)
    one, many, up_to = q.dequeue(), q.dequeue_many(4), q.dequeue_up_to(100)
    return [q.enqueue_many([list(range(30))]), one, one, many, many, one, q.size(), q.close(), many, up_to, one]


def _steps_graph_seed_only(tf):
    tf.set_random_seed(17)
    q = tf.RandomShuffleQueue(10, 0, tf.int32, shapes=[[]])
    one = q.dequeue()
    return [q.enqueue_many([list(range(8))]), one, one, q.dequeue_many(3), q.close(), q.dequeue_up_to(4),
            q.dequeue_many(2), q.dequeue_up_to(5), one]


def _steps_second_unseeded_op(tf):
    # The op seed of an unseeded op is the graph's count of such ops so far: this queue is the third.
    tf.set_random_seed(5)
    tf.random_uniform([2])
    tf.random_shuffle(tf.range(3))
    q = tf.RandomShuffleQueue(20, 2, [tf.int32, tf.string], shapes=[[], [2]])
    words = [[b"a%d" % i, b"b%d" % i] for i in range(12)]
    return [q.enqueue_many([list(range(12)), words]), q.dequeue_many(5), q.dequeue(), q.close(),
            q.dequeue_up_to(20)]


def _steps_refill(tf):
    q = tf.RandomShuffleQueue(6, 4, tf.int64, shapes=[[2]], seed=123456789)
    rows = [[i, -i] for i in range(6)]
    more = [[i, -i] for i in range(6, 9)]
    return [q.enqueue_many([rows]), q.dequeue(), q.dequeue(), q.enqueue_many([more[:2]]), q.dequeue_many(2),
            q.enqueue([more[2]]), q.dequeue(), q.close(), q.dequeue_many(3), q.dequeue_up_to(9)]


def _steps_shared_name(tf):
    # Graph seed, no op seed, a shared name: seed2 comes from an md5 of the graph seed and the name.
    tf.set_random_seed(99)
    q = tf.RandomShuffleQueue(16, 1, tf.int32, shapes=[[]], shared_name="shared_shuffle")
    return [q.enqueue_many([list(range(16))]), q.dequeue_many(6), q.close(), q.dequeue_up_to(16)]


def _steps_op_seed_zero(tf):
    # Graph seed 0 and op seed 0 would mean "unseeded" to the kernel, so TensorFlow asks for (0, 2**31 - 1).
    tf.set_random_seed(0)
    q = tf.RandomShuffleQueue(9, 0, tf.int32, shapes=[[]], seed=0)
    return [q.enqueue_many([list(range(9))]), q.dequeue_many(9)]


def _steps_bad_min_after_dequeue(tf):
    q = tf.RandomShuffleQueue(4, 4, tf.int32, shapes=[[]], seed=1)
    return [q.size()]


def _unshaped(make):
    def steps(tf):
        q = make(tf)
        return [q.enqueue_many([[1, 2, 3]]), q.dequeue_many(2), q.dequeue_up_to(2), q.dequeue_many(0), q.dequeue()]
    return steps


def _steps_from_list(tf):
    qs = [tf.RandomShuffleQueue(10, 0, tf.float32, shapes=[[2]], seed=i + 1) for i in range(2)]
    qs.append(tf.FIFOQueue(10, tf.float32, shapes=[[3]]))
    i = tf.placeholder(tf.int32, [])
    q = tf.QueueBase.from_list(i, qs)
    rows = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
    return [(q.enqueue_many([rows]), {i: 1}), qs[1].size(), qs[0].size(), (q.dequeue_many(3), {i: 1}),
            (q.enqueue_many([rows]), {i: 0}), (q.dequeue(), {i: 0}), (q.size(), {i: 0}),
            (q.enqueue([[1.0, 2.0]]), {i: 2})]


QUEUE_CASES = [
    ("from_list", _steps_from_list),
    ("queue_unshaped_batches", _unshaped(lambda tf: tf.RandomShuffleQueue(10, 0, tf.int32, seed=1))),
    ("fifo_unshaped_batches", _unshaped(lambda tf: tf.FIFOQueue(10, tf.int32))),
    ("queue_mixed", _steps_mixed),
    ("queue_graph_seed_only", _steps_graph_seed_only),
    ("queue_third_unseeded_op", _steps_second_unseeded_op),
    ("queue_refill", _steps_refill),
    ("queue_shared_name", _steps_shared_name),
    ("queue_seed_zero", _steps_op_seed_zero),
    ("queue_bad_min_after_dequeue", _steps_bad_min_after_dequeue),
]


BUILD_ERROR_CASES = [
    ("from_list_empty", lambda tf: tf.QueueBase.from_list(0, [])),
    ("from_list_not_queues", lambda tf: tf.QueueBase.from_list(0, [tf.FIFOQueue(3, tf.int32), 5])),
    ("from_list_dtypes", lambda tf: tf.QueueBase.from_list(0, [tf.FIFOQueue(3, tf.int32), tf.FIFOQueue(3, tf.int64)])),
    ("from_list_names", lambda tf: tf.QueueBase.from_list(0, [tf.FIFOQueue(3, tf.int32, names=["a"]),
                                                               tf.FIFOQueue(3, tf.int32)])),
    ("from_list_shapes", lambda tf: [s.ndims and s.as_list() for s in tf.QueueBase.from_list(0, [
        tf.FIFOQueue(3, [tf.int32, tf.int32], shapes=[[2, 3], [4]]),
        tf.FIFOQueue(3, [tf.int32, tf.int32], shapes=[[2, 5], [4, 1]])]).shapes]),
    ("priority_queue_without_shapes", lambda tf: tf.PriorityQueue(4, [tf.int32])),
]


def build_error(tf, fn) -> list:
    """The type and text of the error building a case raises (if it builds: the list it returns, or None)."""
    with tf.Graph().as_default():
        try:
            built = fn(tf)
        except (TypeError, ValueError) as e:
            return [type(e).__name__, str(e)]
    return built if isinstance(built, list) else None


# ---- tf.random.shuffle, run three times in one session -------------------------------------------------------
def _shuffled(value, seed=None, graph_seed=None, dtype=None):
    def build(tf):
        if graph_seed is not None:
            tf.set_random_seed(graph_seed)
        x = tf.random_shuffle(tf.constant(value, dtype=dtype), seed=seed)
        return [x, x, x]
    return build


SHUFFLE_CASES = [
    ("shuffle_1d_seed_3", _shuffled(list(range(10)), seed=3)),
    ("shuffle_1d_graph_seed", _shuffled(list(range(7)), graph_seed=5)),
    ("shuffle_1d_both_seeds", _shuffled(list(range(100)), seed=42, graph_seed=1)),
    ("shuffle_zero_seeds", _shuffled(list(range(6)), seed=0, graph_seed=0)),
    ("shuffle_negative_seed", _shuffled(list(range(9)), seed=-7)),
    ("shuffle_2d", _shuffled([[i, 10 * i, 100 * i] for i in range(8)], seed=11)),
    ("shuffle_3d_float", _shuffled([[[i + 0.5, -i]] for i in range(5)], seed=2**40)),
    ("shuffle_strings", _shuffled([b"w%d" % i for i in range(6)], seed=8)),
    ("shuffle_two_rows", _shuffled([1, 2], seed=4)),
    ("shuffle_one_row", _shuffled([[1, 2, 3]], seed=4)),
    ("shuffle_scalar", _shuffled(5, seed=4)),
    ("shuffle_empty_rows", _shuffled([[] for _ in range(4)], seed=4, dtype="float32")),
]


# ---- input pipelines with queue runners ------------------------------------------------------------------------
def _shuffling_queue(tf):
    """The RandomShuffleQueue a batcher just built (its QueueRunner is the latest one registered)."""
    return tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[-1].queue


def _settled(tf, fetch, capacity):
    q = _shuffling_queue(tf)
    return fetch, (q.size(), q.is_closed(), capacity)


def _slice_shuffle_batch(tf):
    x, y = tf.train.slice_input_producer([tf.range(20), tf.range(20) * 10], num_epochs=2, shuffle=True, seed=5)
    batch = tf.train.shuffle_batch([x, y], batch_size=4, capacity=12, min_after_dequeue=6, num_threads=1, seed=9)
    return _settled(tf, batch, 12)


def _graph_seeded_shuffle_batch(tf):
    tf.set_random_seed(1234)
    x, = tf.train.slice_input_producer([tf.range(15)], num_epochs=2)
    batch = tf.train.shuffle_batch([x], batch_size=5, capacity=13, min_after_dequeue=7)
    return _settled(tf, batch, 13)


def _smaller_final_batch(tf):
    x = tf.train.range_input_producer(11, num_epochs=2, shuffle=True, seed=21).dequeue()
    batch = tf.train.shuffle_batch([x], batch_size=4, capacity=10, min_after_dequeue=3, seed=2,
                                   allow_smaller_final_batch=True)
    return _settled(tf, batch, 10)


def _enqueue_many_batch(tf):
    rows = tf.train.limit_epochs(tf.reshape(tf.range(36), [12, 3]), num_epochs=2)
    batch = tf.train.shuffle_batch([rows], batch_size=5, capacity=30, min_after_dequeue=4, seed=6,
                                   enqueue_many=True, allow_smaller_final_batch=True)
    return _settled(tf, batch, 30)


def _string_producer_batch(tf):
    names = tf.train.string_input_producer([b"f%d" % i for i in range(7)], num_epochs=3, seed=4).dequeue()
    batch = tf.train.shuffle_batch({"name": names}, batch_size=3, capacity=9, min_after_dequeue=2, seed=12)
    return _settled(tf, batch, 9)


def _join_one_list(tf):
    x, = tf.train.slice_input_producer([tf.range(18)], num_epochs=1, seed=30)
    batch = tf.train.shuffle_batch_join([[x, x * 2]], batch_size=6, capacity=14, min_after_dequeue=5, seed=31)
    return _settled(tf, batch, 14)


def _maybe_shuffle_batch(tf):
    x = tf.train.range_input_producer(24, num_epochs=1, seed=40).dequeue()
    batch = tf.train.maybe_shuffle_batch([x], batch_size=3, capacity=8, min_after_dequeue=3,
                                         keep_input=tf.not_equal(x % 3, 0), seed=41)
    return _settled(tf, batch, 8)


def _maybe_join_one_list(tf):
    x = tf.train.range_input_producer(20, num_epochs=1, seed=50).dequeue()
    batch = tf.train.maybe_shuffle_batch_join([[x, tf.cast(x, tf.float32) / 4]], batch_size=4, capacity=9,
                                              min_after_dequeue=2, keep_input=tf.less(x % 5, 3), seed=51,
                                              allow_smaller_final_batch=True)
    return _settled(tf, batch, 9)


def _sparse_shuffle_batch(tf):
    x = tf.train.range_input_producer(10, num_epochs=1, seed=60).dequeue()
    row = tf.SparseTensor(indices=[[0], [1]], values=tf.stack([x, x * 10]), dense_shape=[3])
    batch = tf.train.shuffle_batch([row, x], batch_size=3, capacity=8, min_after_dequeue=2, seed=61)
    return _settled(tf, batch, 8)


def _shared_name_batch(tf):
    tf.set_random_seed(77)
    x, = tf.train.slice_input_producer([tf.range(12)], num_epochs=1, seed=3)
    batch = tf.train.shuffle_batch([x], batch_size=4, capacity=10, min_after_dequeue=2, shared_name="sb_queue")
    return _settled(tf, batch, 10)


def _graph_seeded_strings(tf):
    tf.set_random_seed(3)
    return tf.train.string_input_producer([b"p%d" % i for i in range(6)], num_epochs=3).dequeue()


def _producer_only(build):
    def case(tf):
        return build(tf), None
    return case


PIPELINE_CASES = [
    ("slice_shuffle_batch", _slice_shuffle_batch),
    ("graph_seeded_shuffle_batch", _graph_seeded_shuffle_batch),
    ("range_smaller_final_batch", _smaller_final_batch),
    ("enqueue_many_shuffle_batch", _enqueue_many_batch),
    ("string_producer_shuffle_batch", _string_producer_batch),
    ("shuffle_batch_join_one_list", _join_one_list),
    ("maybe_shuffle_batch", _maybe_shuffle_batch),
    ("shared_name_shuffle_batch", _shared_name_batch),
    ("maybe_shuffle_batch_join_one_list", _maybe_join_one_list),
    ("sparse_shuffle_batch", _sparse_shuffle_batch),
    ("string_input_producer", _producer_only(lambda tf: tf.train.string_input_producer(
        [b"a", b"b", b"c", b"d", b"e"], num_epochs=4, seed=8).dequeue())),
    ("string_input_producer_graph_seed", _producer_only(_graph_seeded_strings)),
    ("slice_input_producer", _producer_only(lambda tf: tf.train.slice_input_producer(
        [tf.range(9), tf.range(9) * -1], num_epochs=3, seed=19))),
    ("range_input_producer", _producer_only(lambda tf: tf.train.range_input_producer(
        6, num_epochs=5, seed=2**33 + 1).dequeue())),
    ("input_producer_rows", _producer_only(lambda tf: tf.train.input_producer(
        tf.reshape(tf.range(16), [8, 2]), num_epochs=2, seed=14).dequeue())),
]


def run_settled(tf, fn, limit: int = 60) -> dict:
    """Run a pipeline's fetch until OutOfRangeError, each time only once its shuffling queue (if any) is full
    or closed; record every result."""
    g = tf.Graph()
    with g.as_default():
        fetch, settle = fn(tf)
        results, end = [], None
        with tf.Session(graph=g) as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            try:
                for _ in range(limit):
                    if settle is not None:
                        _wait_settled(sess, *settle)
                    results.append(encode(sess.run(fetch)))
            except tf.errors.OutOfRangeError as e:
                end = [type(e).__name__, error_core(e.message)]
            finally:
                coord.request_stop()
                coord.join(threads)
    return {"results": results, "end": end}


def _wait_settled(sess, size, closed, capacity: int) -> None:
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while time.monotonic() < deadline:
        n, is_closed = sess.run([size, closed])
        if is_closed or n == capacity:
            return
        time.sleep(0.002)
    raise TimeoutError("the shuffling queue neither filled up nor closed")


# ---- a dequeue_many waiting in another thread while the queue changes ------------------------------------------
def _waiting(tf, sess, fetch, size, left: int):
    """Run fetch on a thread until it has taken what it may now (the queue is down to left elements)."""
    import threading
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = encode(sess.run(fetch))
        except tf.errors.OutOfRangeError as e:
            box["end"] = [type(e).__name__, error_core(e.message)]
    t = threading.Thread(target=target, daemon=True)
    t.start()
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while sess.run(size) != left and time.monotonic() < deadline:
        time.sleep(0.002)
    return t, box


def run_partial_then_close(tf) -> list:
    """dequeue_many(5) takes the 3 elements there are and waits; closing fails it (OutOfRangeError) and puts the
    3 back, last taken first; dequeue_up_to then draws from the restored queue."""
    with tf.Graph().as_default():
        q = tf.RandomShuffleQueue(10, 0, tf.int32, shapes=[[]], seed=77)
        enq, many, size = q.enqueue_many([[10, 11, 12]]), q.dequeue_many(5), q.size()
        close, up_to = q.close(), q.dequeue_up_to(10)
        with tf.Session() as sess:
            sess.run(enq)
            t, box = _waiting(tf, sess, many, size, 0)
            sess.run(close)
            t.join(SETTLE_TIMEOUT)
            return [box.get("end"), encode(sess.run(up_to))]


def run_served_while_waiting(tf) -> list:
    """A dequeue_many(5) waits with min_after_dequeue 2; each later enqueue hands it one element at once (the
    queue serves it inside the enqueue), so what it gets does not depend on when its thread wakes up."""
    with tf.Graph().as_default():
        q = tf.RandomShuffleQueue(20, 2, tf.int32, shapes=[[]], seed=21)
        x = tf.placeholder(tf.int32, [])
        one, many, size = q.enqueue(x), q.dequeue_many(5), q.size()
        more, close, up_to = q.enqueue_many([[20, 21, 22, 23]]), q.close(), q.dequeue_up_to(10)
        with tf.Session() as sess:
            sess.run(q.enqueue_many([[0, 1, 2]]))
            t, box = _waiting(tf, sess, many, size, 2)
            for value in range(10, 15):
                sess.run(one, {x: value})
            t.join(SETTLE_TIMEOUT)
            sess.run(more)
            return [box.get("value"), encode(sess.run(q.dequeue_many(4))), sess.run(close),
                    encode(sess.run(up_to))]
