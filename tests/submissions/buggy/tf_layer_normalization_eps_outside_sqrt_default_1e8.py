"""Blind round 42 (b42_02, issue 38): layer_norm ported from
yusugomori/deeplearning-keras-tf2-torch, 6/layers/tf/LayerNormalization.py (TensorFlow:
tf.nn.moments, `std = tf.sqrt(var) + self.eps`, eps=np.float32(1e-8)).

Mistakes:
1. eps is added outside the square root, `(x - mean) / (sqrt(var) + eps)`, not inside.
2. The default eps is 1e-8, not the lecture's 1e-6. Both show on rows of small variance (on
   ordinary rows they change the outputs by about 6e-6 only).

Grader: at blind time (e77cb46) and now, named: "`eps` is added outside the square root,
`sqrt(var) + eps`" on the hidden check, and both together ("eps is 1e-08; the lecture's is
1e-06") on "eps inside the square root" (whose eps=0.5 shows only mistake 1, both being real).
Since 2026-12-07 a pair's small constant is said as far as the calls tell it, as a single
rewrite's is (constants.settled): "eps is a value below about 1e-07 (...)": these calls cannot
tell 1e-8 from 0. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-07+op:root:layer_norm:eps-outside-sqrt'}


def layer_norm(x, gamma, beta, eps=1e-8):
    """LayerNormalization.call from the TF book code, with numpy in place of tf.nn.moments."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)                     # tf.nn.moments(x, axes=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    std = np.sqrt(var) + eps

    return gamma * (x - mean) / std + beta
