"""Blind round 24 (b24_02, issue 38): self_attention and encoder_block ported from lucidrains'
PaLM-pytorch `ParallelTransformerBlock` (ViT-22B's parallel layers: one LayerNorm feeding both the
attention and the feed-forward, `fused_attn_ff_proj` with bias=False).

Mistakes:
1. encoder_block is the parallel block with one shared norm: the MLP reads `layer_norm(x, ln1)` of
   the block's input, not `layer_norm(x, ln2)` of x after the attention residual.
2. self_attention: q, k, v projected without bq, bk, bv (bk alone would cancel in the softmax).

Grader: at blind time and now, both named: on encoder-block, 2 mistakes at once (`layer_norm(x,
ln2...)` given `x` as it was before `x = x + self_attention(...)`, and given p['ln1_g'],
p['ln1_b']: at blind time "(its line copied and not edited)", a guessed cause; now "the parameters
of the step before it, where the lecture's step has its own"), and the bias left out of the q and
v projections on no-causal-mask and multi-head-attention; vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2+op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale = dim_head ** -0.5
    # fused_attn_ff_proj has bias=False: the projections are pure matmuls
    q, k, v = x @ p["Wq"], x @ p["Wk"], x @ p["Wv"]
    q = q.reshape(n, heads, dim_head).transpose(1, 0, 2) * scale     # rearrange 'n (h d) -> h n d'
    k = k.reshape(n, heads, dim_head).transpose(1, 0, 2)
    v = v.reshape(n, heads, dim_head).transpose(1, 0, 2)
    sim = np.einsum("hid,hjd->hij", q, k)
    if causal:
        causal_mask = np.triu(np.ones((n, n), dtype=bool), 1)
        sim = np.where(causal_mask, -np.finfo(sim.dtype).max, sim)
    attn = softmax(sim, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(n, dim)                  # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Parallel block: x + attn(norm(x)) + ff(norm(x))."""
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attn_out = self_attention(h, p, heads)
    ff_out = gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return attn_out + ff_out + x
