"""Blind round 25 (b25_05, issue 38): encoder_block and self_attention ported from ViT-22B
("Scaling Vision Transformers to 22 Billion Parameters", Dehghani et al. 2023, and its open
re-implementations): the parallel layer y = x + MLP(LN(x)) + Attention(LN(x)), and q, k, v
projections without biases (the output projection keeps its bias).

Mistakes:
1. self_attention: `q = x @ p["Wq"]`, `k = x @ p["Wk"]`, `v = x @ p["Wv"]`: bq, bk and bv are
   never added (bk alone would cancel in the softmax).
2. encoder_block is the parallel block: the MLP reads `layer_norm(x, ln2)` of the block's input,
   not of x after the attention residual.

Grader: at blind time and now, both named: the bias left out of the q and v projections (2
mistakes at once) on no-causal-mask and multi-head-attention, and `layer_norm(x, ln2...)` given
`x` as it was before `x = x + self_attention(...)` on encoder-block; vit-checkpoint observes the
broken functions. Every mistake named, so in buggy/.
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention with ViT-22B's bias-free q, k, v projections."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"]
    k = x @ p["Wk"]
    v = x @ p["Wv"]
    q, k, v = (y.reshape(T, heads, d_h).transpose(1, 0, 2) for y in (q, k, v))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """ViT-22B parallel block: attention and MLP both read the block input."""
    h1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    h2 = layer_norm(x, p["ln2_g"], p["ln2_b"])
    attn_out = self_attention(h1, p, heads)
    mlp_out = gelu(h2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + attn_out + mlp_out
