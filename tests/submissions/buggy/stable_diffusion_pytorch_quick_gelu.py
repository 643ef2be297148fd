"""Blind round 66 (b66_12, issue 38): self_attention and gelu ported from
dnnhhuy/stable-diffusion-pytorch (`demo/models/attention.py`, `demo/models/activation_fn.py`):
self_attention right (the mask applied before the scale, as in the source).

encoder_block, the solution's own, is listed too: it calls gelu, and encoder-block's `uses:`
names encoder_block only, so the exercise may lose points for it.

Mistakes:
21. gelu (line 174 of the file as delivered): QuickGELU, `x * sigmoid(1.702 x)` (CLIP's), neither
    the erf GELU nor the tanh one: off by up to about 2e-2.

Grader: at blind time (f4776223) and now, 99/110, named on encoder-block's two checks ("In
`encoder_block` (at the model solution's step `mlp(...)`), the activation is CLIP's quick GELU, x
* sigmoid(1.702 x)"): said at the step that calls `gelu`, and no exercise checks `gelu` alone.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}
CORRECT = ('self_attention',)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d); `causal` is the lookahead_mask of normal_attention."""
    seq_len, embedding_dim = x.shape
    if embedding_dim % heads:
        raise ValueError(f"width {embedding_dim} is not divisible by {heads} heads")
    num_heads = heads
    head_dim = embedding_dim // num_heads
    q = x @ p["Wq"] + p["bq"]      # proj_q
    k = x @ p["Wk"] + p["bk"]      # proj_k (cond = x)
    v = x @ p["Wv"] + p["bv"]      # proj_v

    # (seq_len, embedding_dim) -> (seq_len, num_heads, head_dim) -> (num_heads, seq_len, head_dim)
    q = q.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)

    attn_weights = q @ k.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones(attn_weights.shape, dtype=bool), 1)
        attn_weights = np.where(mask, -np.inf, attn_weights)     # masked_fill_(mask, -inf)
    attn_weights = attn_weights / math.sqrt(head_dim)
    attn_weights = softmax(attn_weights, axis=-1)
    attn_weights = attn_weights @ v
    # (num_heads, seq_len, head_dim) -> (seq_len, num_heads, head_dim) -> (seq_len, embedding_dim)
    attn_weights = attn_weights.transpose(1, 0, 2).reshape(seq_len, embedding_dim)
    return attn_weights @ p["Wo"] + p["bo"]                      # proj_out


def gelu(x):
    """GELU for the MLP (QuickGELU from activation_fn.py: x * sigmoid(1.702 x))."""
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
