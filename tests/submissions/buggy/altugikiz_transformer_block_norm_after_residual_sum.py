"""Blind round 48 (b48_10, issue 38): encoder_block ported from altugikiz/LLMs-Transformers,
transformer-encoder-layer/transformer_block.py (`x = self.norm1.forward(x + attn_output)`, then
`x = self.norm2.forward(x + ffn_output)`), the FFN from engine/ffn.py; the port keeps GELU.

Mistakes:
1. Post-LN instead of pre-LN: `x = LN1(x + attn(x))`, then `x = LN2(x + mlp(x))`. Attention reads
   the raw x and the output ends in a LayerNorm. Wrong on every input (T = 1 included).

Grader: at blind time (4b7c886d) and now, named: "That is a post-LN block (LayerNorm after each
residual sum, as in the 2017 Transformer). ViT is pre-LN: ..." on encoder-block; vit-checkpoint
observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """TransformerBlock.forward from altugikiz/LLMs-Transformers, GELU kept."""
    # 1. Sublayer: Multi-Head Attention + Residual + LayerNorm
    attn_output = self_attention(x, p, heads)
    x = layer_norm(x + attn_output, p["ln1_g"], p["ln1_b"])  # Residual connection

    # 2. Sublayer: Feed-Forward + Residual + LayerNorm
    z1 = np.dot(x, p["W1"]) + p["b1"]
    a1 = gelu(z1)
    ffn_output = np.dot(a1, p["W2"]) + p["b2"]
    x = layer_norm(x + ffn_output, p["ln2_g"], p["ln2_b"])  # Residual connection

    return x
