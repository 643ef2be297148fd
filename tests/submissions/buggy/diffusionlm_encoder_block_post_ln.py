"""Blind round 79 (b79_14, issue 38): encoder_block ported from pypi-data/pypi-mirror-339
`packages/diffusionLM/diffusionlm-0.1.8.tar.gz/diffusionlm-0.1.8/diffusionLM/model/attention.py`
(with `MLP.py` of the same package).

Mistakes:
1. encoder_block (lines 180-181 of the file as delivered): post-LN, `x = LN(x + attn(x)); x =
   LN(x + mlp(x))` (BERT's and diffusionLM's order), instead of pre-LN: wrong on every input,
   vit_forward's too.
The delivered file's top-level helper `mlp` is nested in encoder_block here.

Grader: at blind time (50c6c808) and now, 99/110, named on encoder-block ("That is a post-LN block
(LayerNorm after each residual sum, as in the 2017 Transformer). ViT is pre-LN"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """Attention and MLP sublayers, each with a residual connection and LayerNorm."""
    def mlp(x, p):
        """fc1 -> gelu -> fc2"""
        h = gelu(x @ p["W1"] + p["b1"])
        return h @ p["W2"] + p["b2"]

    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    x = layer_norm(x + mlp(x, p), p["ln2_g"], p["ln2_b"])
    return x
