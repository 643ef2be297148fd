"""Blind round 22 (b22_02, issue 38): self_attention and encoder_block ported from
facebookresearch/detr (transformer.py: TransformerEncoderLayer.forward_pre, nn.MultiheadAttention
with an attn_mask).

Mistakes:
1. self_attention (causal=True only) builds the mask as the positions to keep (`tril`) but
   applies it with torch's convention, True = hide (`np.where(attn_mask, -inf, scores)`): each
   token sees only the ones after it, and the last row sees nothing.
2. encoder_block adds the first residual to the LayerNorm's output src2 (`src = src2 + attn`)
   instead of to the block's input.

Grader: at blind time and now (the same commit), both named: the np.where condition inverted
(the masked_fill convention), and the residual taken from the layer_norm's output;
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'}


def self_attention(x, p, heads, causal=False):
    # nn.MultiheadAttention(d_model, nhead) on one sequence
    L, E = x.shape
    if E % heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = E // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    q = q / math.sqrt(head_dim)
    attn_output_weights = q @ k.transpose(0, 2, 1)
    if causal:
        attn_mask = np.tril(np.ones((L, L), dtype=bool))
        attn_output_weights = np.where(attn_mask, -np.inf, attn_output_weights)
    attn_output_weights = softmax(attn_output_weights, axis=-1)
    attn_output = (attn_output_weights @ v).transpose(1, 0, 2).reshape(L, E)
    return attn_output @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    # TransformerEncoderLayer.forward_pre
    src = x
    src2 = layer_norm(src, p["ln1_g"], p["ln1_b"])
    src = src2 + self_attention(src2, p, heads)
    src2 = layer_norm(src, p["ln2_g"], p["ln2_b"])
    src2 = gelu(src2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    src = src + src2
    return src
