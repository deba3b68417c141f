"""Candidate samplers: draws are random, so their distributions are checked against the samplers' probability
formulas (TF's range samplers), and the expected counts against p * num_sampled / 1 - (1 - p)^tries."""
import numpy as np
import pytest

import edgelite as tf

RUNS = 400


def _draws(sampler, range_max, unique, **kw):
    """(all sampled ids over RUNS runs, the outputs of the last run) for a [[0]] true class."""
    with tf.Graph().as_default():
        out = sampler(tf.constant([[0]], tf.int64), 1, 8, unique, range_max, seed=7, **kw)
        with tf.Session() as sess:
            runs = [sess.run(out) for _ in range(RUNS)]
    return np.concatenate([r.sampled_candidates for r in runs]), runs


def _chi2_ok(ids, p, n):
    """Pearson chi-square of observed id counts against probabilities p, at a loose 1e-4 level."""
    counts = np.bincount(ids, minlength=len(p))
    expected = p * n
    stat = float(np.sum((counts - expected) ** 2 / expected))
    dof = len(p) - 1
    # Wilson-Hilferty normal approximation of the chi-square quantile at z = 3.7
    crit = dof * (1 - 2 / (9 * dof) + 3.7 * np.sqrt(2 / (9 * dof))) ** 3
    return stat < crit


def test_uniform_distribution_and_counts():
    ids, runs = _draws(tf.nn.uniform_candidate_sampler, 10, False)
    assert ids.min() >= 0 and ids.max() < 10
    assert _chi2_ok(ids, np.full(10, 0.1), ids.size)
    np.testing.assert_allclose(runs[0].sampled_expected_count, np.full(8, 0.8), rtol=1e-6)
    np.testing.assert_allclose(runs[0].true_expected_count, [[0.8]], rtol=1e-6)


def test_log_uniform_distribution():
    ids, runs = _draws(tf.nn.log_uniform_candidate_sampler, 20, False)
    k = np.arange(20)
    p = np.log((k + 2.0) / (k + 1.0)) / np.log(21.0)
    assert _chi2_ok(ids, p, ids.size)
    last = runs[-1]
    np.testing.assert_allclose(last.sampled_expected_count, p[last.sampled_candidates] * 8, rtol=1e-6)


def test_unique_sampling_expected_counts_follow_tries():
    ids, runs = _draws(tf.nn.log_uniform_candidate_sampler, 12, True)
    k = np.arange(12)
    p = np.log((k + 2.0) / (k + 1.0)) / np.log(13.0)
    for r in runs[:50]:
        assert len(set(r.sampled_candidates.tolist())) == 8
        ps = p[r.sampled_candidates]
        # every count must come from one shared number of tries >= 8
        tries = np.log1p(-r.sampled_expected_count.astype(np.float64)) / np.log1p(-ps)
        if np.allclose(r.sampled_expected_count, ps * 8, rtol=1e-5):
            continue
        assert np.allclose(tries, tries[0], rtol=1e-3) and tries[0] > 8 - 1e-3
        np.testing.assert_allclose(r.true_expected_count[0, 0], -np.expm1(tries[0] * np.log1p(-p[0])), rtol=1e-4)


def test_fixed_unigram_distribution_with_reserved_ids_and_distortion():
    weights = np.array([0.0, 0.0] + [3.0, 1.0, 4.0, 1.0, 5.0, 9.0]) ** 0.75
    ids, _ = _draws(tf.nn.fixed_unigram_candidate_sampler, 8, False, unigrams=[3, 1, 4, 1, 5, 9],
                    num_reserved_ids=2, distortion=0.75)
    assert not np.isin(ids, [0, 1]).any()
    assert _chi2_ok(ids - 2, weights[2:] / weights.sum(), ids.size)


def test_fixed_unigram_vocab_file(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("the,50\nof,30\nand,20\n")
    with tf.Graph().as_default():
        out = tf.nn.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 3, False, 3,
                                                    vocab_file=str(vocab))
        with tf.Session() as sess:
            r = sess.run(out)
    np.testing.assert_allclose(r.true_expected_count, [[0.5 * 3]], rtol=1e-6)


def test_learned_unigram_counts_true_classes_between_runs():
    with tf.Graph().as_default():
        out = tf.nn.learned_unigram_candidate_sampler(tf.constant([[2], [2], [4]], tf.int64), 1, 6, False, 5)
        with tf.Session() as sess:
            first = sess.run(out).true_expected_count
            second = sess.run(out).true_expected_count
        with tf.Session() as sess:
            fresh = sess.run(out).true_expected_count
    np.testing.assert_allclose(first[:, 0], [6 / 5, 6 / 5, 6 / 5], rtol=1e-6)
    # after one run class 2 has count 3 and class 4 count 2 out of 8
    np.testing.assert_allclose(second[:, 0], [6 * 3 / 8, 6 * 3 / 8, 6 * 2 / 8], rtol=1e-6)
    np.testing.assert_allclose(fresh, first, rtol=1e-6)


def test_seeded_sampler_repeats_across_sessions():
    with tf.Graph().as_default():
        out = tf.nn.log_uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 5, True, 50, seed=3)
        with tf.Session() as sess:
            a = [sess.run(out.sampled_candidates) for _ in range(2)]
        with tf.Session() as sess:
            b = [sess.run(out.sampled_candidates) for _ in range(2)]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a[0], a[1])


def test_sampler_static_shapes_and_no_gradient():
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.int64, [None, 2])
        s = tf.nn.uniform_candidate_sampler(labels, 2, 6, True, 10)
        assert s.sampled_candidates.shape.as_list() == [6]
        assert s.true_expected_count.shape.as_list() == [None, 2]
        x = tf.cast(labels, tf.float32)
        assert tf.gradients(s.true_expected_count, [x]) == [None]


@pytest.mark.parametrize("loss", [tf.nn.nce_loss, tf.nn.sampled_softmax_loss])
def test_losses_with_default_sampler_train_down(loss):
    rng = np.random.default_rng(0)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.constant(rng.normal(size=(16, 6)).astype(np.float32))
        y = tf.constant(rng.integers(0, 30, size=(16, 1)))
        w = tf.Variable(rng.normal(size=(30, 6)).astype(np.float32) * 0.1)
        b = tf.Variable(np.zeros(30, np.float32))
        cost = tf.reduce_mean(loss(w, b, y, x, 5, 30))
        step = tf.train.GradientDescentOptimizer(0.5).minimize(cost)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            before = np.mean([sess.run(cost) for _ in range(20)])
            for _ in range(200):
                sess.run(step)
            after = np.mean([sess.run(cost) for _ in range(20)])
    assert after < 0.5 * before


def test_nce_loss_gradient_with_unknown_batch():
    """The concat of true and sampled logits has an unknown batch dim; its gradient must still split."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.int32, [None, 1])
        w = tf.Variable(np.ones((12, 4), np.float32))
        b = tf.Variable(np.zeros(12, np.float32))
        loss = tf.reduce_sum(tf.nn.nce_loss(w, b, y, x, 3, 12))
        gx = tf.gradients(loss, x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            g = sess.run(gx, {x: np.ones((5, 4), np.float32), y: np.arange(5).reshape(5, 1)})
    assert g.shape == (5, 4) and np.isfinite(g).all()
