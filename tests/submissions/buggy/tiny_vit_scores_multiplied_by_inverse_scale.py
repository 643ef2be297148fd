"""Blind round 35 (b35_11, issue 38): augustwester/tiny-vit, att.py (Attention: one fused qkv
projection split "t (k h d)", `self.scale = 1 / latent_dim ** 0.5`, `softmax(qkT /
self.scale)`), ported to self_attention.

Mistakes:
1. The scores are divided by `scale = 1 / sqrt(d_h)`, so MULTIPLIED by sqrt(d_h) instead of
   divided. Wrong on every input (any number of heads, causal or not).

Grader: at blind time (2f30801) and now, named: "`q @ k.swapaxes(-1, -2) /
math.sqrt(q.shape[-1])` multiplies by `math.sqrt(q.shape[-1])` instead of dividing by it" on
the five failed attention checks; vit-checkpoint observes the broken self_attention. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:divided:self_attention/attention:math.sqrt(q.shape[-1])-multiplied',
          'multi-head-attention': 'op:divided:self_attention/attention:math.sqrt(q.shape[-1])-multiplied'}


def self_attention(x, p, heads, causal=False):
    """Attention.forward for one sequence (t, e)."""
    t, e = x.shape
    if e % heads:
        raise ValueError(f"width {e} is not divisible by {heads} heads")
    num_heads = heads
    latent_dim = e // heads
    scale = 1 / latent_dim ** 0.5

    W = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    bW = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ W + bW
    q, k, v = qkv.reshape(t, 3, num_heads, latent_dim).transpose(1, 2, 0, 3)   # "t (k h d) -> k h t d"
    qkT = q @ k.transpose(0, 2, 1)
    if causal:
        qkT = np.where(np.tril(np.ones((t, t), dtype=bool)), qkT, -np.inf)
    att = softmax(qkT / scale, axis=-1) @ v
    cat = att.transpose(1, 0, 2).reshape(t, num_heads * latent_dim)          # "h t d -> t (h d)"
    return cat @ p["Wo"] + p["bo"]
