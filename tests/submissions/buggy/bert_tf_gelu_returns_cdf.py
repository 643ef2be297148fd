"""Blind round 14 (b14_12, issue 38): Google BERT's modeling.py gelu (TensorFlow), "cdf = 0.5 *
(1.0 + tf.tanh(...)); return x * cdf", with the last multiplication forgotten.

Mistake: gelu (the MLP's activation) returns cdf = Phi(x) (tanh form) instead of x * cdf.
encoder_block calls it; encoder_block itself is the solution's, listed here only so that its
exercises may lose points (no `uses:` line names gelu).

Grader: named at blind time and now ("the activation is GELU's tanh approximation or the exact
GELU, with `x` left out of `0.5 * x`").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.drop-x'}


def gelu(x):
    """GELU ported from BERT's modeling.py (tanh approximation)."""
    x = np.asarray(x, dtype=float)
    cdf = 0.5 * (1.0 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * np.power(x, 3))))
    return cdf


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION
