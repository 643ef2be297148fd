"""Blind round 6 (b6_08, issue 38): encoder_block as the original Transformer / BERT (post-LN:
normalise after the residual), and vit_forward without the final encoder norm (flax/big_vision's
`encoder_norm`).

Mistakes:
1. encoder_block: post-LN, x = layer_norm(x + attn(x)), then x = layer_norm(x + mlp(x)) (the norms
   applied after each residual sum, the sublayers get the un-normalised input). Shows on every input.
2. vit_forward: no final layer_norm (ln_g, ln_b) before the head. Shows on every input.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln', 'vit-forward': 'vit_final_ln_skipped'}


def encoder_block(x, p, heads):
    """Post-LN block, as "Attention is all you need"."""
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    hidden = gelu(x @ p["W1"] + p["b1"])
    return layer_norm(x + hidden @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"])


def vit_forward(image, params):
    """Logits of the [CLS] token."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
