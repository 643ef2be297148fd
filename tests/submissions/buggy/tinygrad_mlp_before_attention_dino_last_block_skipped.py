"""Blind round 10 (b10_12, issue 38): a table-driven pre-LN block (tinygrad TransformerBlock's two
residual sublayers as a list of (norm, fn) pairs) and facebookresearch/dino's
get_last_selfattention loop (`if i < len(self.blocks) - 1: x = blk(x)`) without its else branch.

Mistakes:
1. encoder_block applies the MLP sublayer first, then attention. Every input.
2. vit_forward never applies the last block. Wrong with one block or more.

Grader: in the blind round, encoder-block's and vit-forward's checklists only; both named
since (sequence.residuals_swapped, sequence.loop_short).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residuals_swapped:encoder_block:residuals-self_attention-mlp-swapped',
          'vit-forward': 'op:loop_short:vit_forward:block-last-left-out'}


def encoder_block(x, p, heads):
    """Pre-LN residual sublayers, written as a table of (gamma, beta, sublayer)."""
    def attn(h):
        return self_attention(h, p, heads)

    def mlp(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    sublayers = [(p["ln2_g"], p["ln2_b"], mlp), (p["ln1_g"], p["ln1_b"], attn)]
    for g, b, fn in sublayers:
        x = x + fn(layer_norm(x, g, b))
    return x


def vit_forward(image, params):
    """DINO VisionTransformer: prepare_tokens, the blocks, norm, then the head on [CLS]."""
    x = embed_image(image, params)
    blocks = params["blocks"]
    for i, blk in enumerate(blocks):
        if i < len(blocks) - 1:
            x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
