"""Blind round 41 (b41_13, issue 38): layer_norm and encoder_block after a Flax (flax.linen)
Perceiver IO module file (code-search file id 20146964837: norm(x) = nn.LayerNorm(use_bias=True,
use_scale=True)(x); SelfAttention.__call__: qkv = norm(x); x += mha(qkv, qkv); return x +
mlp(norm(x))). The student's mlp is nested in encoder_block.

Mistakes:
1. layer_norm: flax's use_fast_variance (its default): var = max(0, E[x^2] - E[x]^2), one pass,
   wrong far from zero.
2. encoder_block: `x += self_attention(...)`, in place on the caller's array (JAX arrays are
   immutable, numpy arrays are not): the value is right, the caller's x is overwritten.

Grader: at blind time (6092674) and now, every mistake named: "You took the variance in one
pass, mean(x**2) - mean(x)**2" on layer-norm's float32 small-examples case; "Change no array
`encoder_block` is given in place" on encoder-block (visible and hidden, graded with the
grader's layer_norm standing in). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_one_pass_variance', 'encoder-block': 'changes_input_in_place'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis, as flax.linen.LayerNorm
    computes it (its default use_fast_variance: var = E[x^2] - E[x]^2, clipped at 0)."""
    mean = np.mean(x, axis=-1, keepdims=True)
    mean2 = np.mean(np.square(x), axis=-1, keepdims=True)
    var = np.maximum(0.0, mean2 - np.square(mean))
    mul = 1.0 / np.sqrt(var + eps)  # lax.rsqrt(var + epsilon)
    y = (x - mean) * mul
    return y * gamma + beta


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5), as SelfAttention.__call__:

    qkv = norm(x); x += mha(qkv, qkv); return x + mlp(norm(x))
    """
    def mlp(h):
        h = h @ p["W1"] + p["b1"]
        h = gelu(h)
        return h @ p["W2"] + p["b2"]

    qkv = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x += self_attention(qkv, p, heads)
    return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
