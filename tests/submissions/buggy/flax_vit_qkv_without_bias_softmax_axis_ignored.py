"""Blind round 74 (b74_09, issue 38): softmax and self_attention ported from
1kaiser/2D-Positional-Encoding-Vision-Transformer `vit_model.py` (flax OriginalSelfAttention:
Dense(use_bias=False) for the queries, keys and values).

Mistakes:
1. self_attention (lines 102, 104 and 106 of the file as delivered): q, k and v computed as `x @
   p["Wq"]` etc. without bq, bk, bv (the source's bias-free projections); bo is kept. Wrong
   whenever the q/k/v biases are not zero.
2. softmax (lines 83 and 85): the max and the sum always over axis -1 (the source's hard-coded
   `jax.nn.softmax(axis=-1)`), `axis` ignored. Wrong only along another axis of >= 2-D input.
The delivered file's tanh GELU (jax.nn.gelu's default, accepted) is not ported.

Grader: at blind time (997839b5) and now, 90/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("q, k and v are projected without their biases: `x @ p['Wq']` ..."); mistake 2
on stable-softmax ("In `softmax`, `axis` is taken as its default, -1, whatever is given.", with
the probability property's checklist); vit-checkpoint observes self_attention. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's checklist for the axis ignored


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    x_max = np.max(x, axis=-1, keepdims=True)
    unnormalized = np.exp(x - x_max)
    return unnormalized / np.sum(unnormalized, axis=-1, keepdims=True)


def self_attention(x, p, heads, causal=False):
    s, e = x.shape  # S, E
    head_embed_dim = e // heads
    if head_embed_dim * heads != e:
        raise ValueError("embed_dim must be divisible by n_attention_heads")

    # Generate Q, K, V
    # Reshape and transpose to (H, S, HE)
    xq = (x @ p["Wq"]).reshape(s, heads, head_embed_dim)
    xq = np.transpose(xq, (1, 0, 2))  # H, S, HE
    xk = (x @ p["Wk"]).reshape(s, heads, head_embed_dim)
    xk = np.transpose(xk, (1, 0, 2))  # H, S, HE
    xv = (x @ p["Wv"]).reshape(s, heads, head_embed_dim)
    xv = np.transpose(xv, (1, 0, 2))  # H, S, HE

    # Compute Attention presoftmax values
    xk_t = np.transpose(xk, (0, 2, 1))     # H, HE, S
    x_attention = np.matmul(xq, xk_t)      # H, S, S

    x_attention = x_attention / (head_embed_dim ** 0.5)  # Scale

    if causal:
        future = np.triu(np.ones((s, s), dtype=bool), 1)
        x_attention = np.where(future, -np.inf, x_attention)

    x_attention = softmax(x_attention, axis=-1)  # Compute Attention Matrix

    out = np.matmul(x_attention, xv)       # H, S, HE

    # Reshape and project output
    out = np.transpose(out, (1, 0, 2))     # S, H, HE
    out = np.reshape(out, (s, e))          # S, E

    return out @ p["Wo"] + p["bo"]         # S, E
