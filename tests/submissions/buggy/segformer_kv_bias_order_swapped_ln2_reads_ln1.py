"""Blind round 20 (b20_02, issue 38): self_attention and encoder_block ported from NVlabs/SegFormer
(mmseg/models/backbones/mix_transformer.py: a separate q projection and a fused kv one,
`kv.reshape(B, -1, 2, heads, C // heads).permute(2, 0, 3, 1, 4)`, Block with norm1 / norm2).
The student's top-level MLP helper `_mlp` is nested in encoder_block here: the builder replaces
only the solution's own definitions.

Mistakes:
1. self_attention builds the fused kv bias as `concatenate([bv, bk])` against the fused weight
   `concatenate([Wk, Wv])`: the keys get bv and the values bk (the keys' shift cancels in the
   softmax, so what shows is the values' bk where bv belongs).
2. encoder_block's second LayerNorm reuses norm1's parameters (ln1_g, ln1_b) instead of ln2_g,
   ln2_b.

Grader: at blind time and now, both named: "`p['bk']` is read where `p['bv']` belongs" (the whole
visible effect) and layer_norm given p['ln1_g'], p['ln1_b'] "(its line copied and not edited)";
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:parameter:self_attention:bv-as-bk',
          'multi-head-attention': 'op:parameter:self_attention:bv-as-bk',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError(f"dim {C} should be divided by num_heads {heads}.")
    head_dim = C // heads
    scale = head_dim ** -0.5

    q = (x @ p["Wq"] + p["bq"]).reshape(N, heads, C // heads).transpose(1, 0, 2)
    kv_w = np.concatenate([p["Wk"], p["Wv"]], axis=1)
    kv_b = np.concatenate([p["bv"], p["bk"]])
    kv = (x @ kv_w + kv_b).reshape(N, 2, heads, C // heads).transpose(1, 2, 0, 3)
    k, v = kv[0], kv[1]

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        future = np.arange(N)[None, :] > np.arange(N)[:, None]
        attn = np.where(future, -np.inf, attn)
    attn = softmax(attn, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def _mlp(x, p):
        x = x @ p["W1"] + p["b1"]
        x = gelu(x)
        return x @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + _mlp(layer_norm(x, p["ln1_g"], p["ln1_b"]), p)
    return x
