"""Blind round 46 (b46_01, issue 38): self_attention and encoder_block ported from
Kaushalya/jax_playground's layers.py (a pure-functional JAX transformer: attention,
create_fast_attention, create_multi_head_attention, create_feed_forward). The student's top-level
helpers `_attention` and `_linear` are nested in the functions that call them here: the builder
replaces only the solution's own definitions.

Mistakes:
1. self_attention: the heads' scores are stacked (heads, T, T) and `softmax(score, axis=1)` takes
   the softmax over the queries where the last axis (the keys) belongs; with one head the scores
   are 2-D (T, T) and axis 1 is the keys', so right with one head, wrong when heads > 1.
2. encoder_block: the MLP uses ReLU (create_feed_forward's linear1 -> relu -> linear2) where ViT
   uses GELU.

Grader: at blind time (78229091), the ReLU was named (encoder_relu, "The MLP uses ReLU; ViT's
MLP uses GELU"); the softmax axis was only observed ("right with one head, wrong with heads=2:
look at each step that depends on the number of heads (the split ..., the scale, the merge)", a
list that leaves out the softmax) and the multi-head checks gave checklists. Now the softmax is
named on every self_attention check (op:one_map_axis: "`softmax` is taken over axis 1 ... the
last axis (the keys) of one head's 2-D (T, T) map, but of the heads' maps stacked (heads, T, T)
axis 1 is the queries: right with one head, wrong with several"), the ReLU as before. Every
mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'multi-head-attention': 'op:one_map_axis:self_attention/attention:softmax.axis=1-of-one-map',
          'no-causal-mask': 'op:one_map_axis:self_attention/attention:softmax.axis=1-of-one-map'}


def self_attention(x, p, heads, causal=False):
    """layers.attention / create_attention / create_fast_attention; `_attention` nested here."""
    def _attention(q, k, v, mask=None):
        # layers.attention: q, k, v are (seq_len, d_k) or (heads, seq_len, d_k)
        d_k = q.shape[-1]
        k_axes = (1, 0)
        if q.ndim == 3:
            k_axes = (0, 2, 1)
        score = q @ k.transpose(k_axes) / np.sqrt(d_k)  # Shape: (heads, seq_len, seq_len)
        if mask is not None:
            score = score + mask
        attn = softmax(score, axis=1)  # Shape: (heads, seq_len, seq_len)
        return attn @ v  # Shape: (heads, seq_len, d_k)

    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    d_k = d_model // heads
    mask = None
    if causal:
        # Create mask: 0 to attend, -Inf to ignore
        with np.errstate(divide="ignore"):
            mask = np.log(np.tril(np.ones((seq_len, seq_len))))
    q = x @ p["Wq"] + p["bq"]  # Shape: (seq_len, heads * d_k)
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    if heads == 1:
        # create_attention: a single head works on the (seq_len, d_k) matrices
        output = _attention(q, k, v, mask=mask)
    else:
        # create_fast_attention: add a new dimension for heads and move it to the front
        head_shape = x.shape[:-1]
        q, k, v = map(
            lambda t: t.reshape(*head_shape, heads, d_k).transpose((1, 0, 2)), (q, k, v)
        )  # Shape: (heads, seq_len, d_k)
        output = _attention(q, k, v, mask=mask)  # Shape: (heads, seq_len, d_k)
        output = output.transpose((1, 0, 2)).reshape(-1, heads * d_k)  # (seq_len, heads * d_k)
    return output @ p["Wo"] + p["bo"]  # linear_output


def encoder_block(x, p, heads):
    """create_multi_head_attention.forward and create_feed_forward; `_linear` nested here."""
    def _linear(w, b, x):
        return x @ w + b

    # create_multi_head_attention.forward: pre-attention and pre-feedforward layer norms
    t1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    t1 = self_attention(t1, p, heads)
    x = x + t1
    t2 = layer_norm(x, p["ln2_g"], p["ln2_b"])
    # create_feed_forward: linear1 -> relu -> linear2
    t2 = np.maximum(_linear(p["W1"], p["b1"], t2), 0.0)
    t2 = _linear(p["W2"], p["b2"], t2)
    return x + t2
