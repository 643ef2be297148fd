"""Blind round 82 (b82_13, issue 38): layer_norm and encoder_block ported from
Nayal17/English2Hindi_Transformers-_from_scratch `residual_layernorm.py`. The delivered file's
top-level helper `residual_layer_norm` is nested in encoder_block here.

Mistakes:
1. layer_norm (line 82 of the file as delivered): default eps 1e-5 (torch's nn.LayerNorm)
   instead of 1e-6: wrong on small-variance rows with the default; an explicit eps is right.
2. encoder_block (lines 117-126): post-LN, `LayerNorm(x + sublayer(x))` (the 2017 Transformer)
   instead of pre-LN: wrong on every input (vit_forward inherits it).

Grader: at blind time (ee59f1b1) and now, 96/110. Mistake 1 named on layer-norm ("In `layer_norm`,
eps is 1e-05; the student API's is 1e-06."); mistake 2 named on encoder-block ("That is a post-LN
block ... ViT is pre-LN"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05', 'encoder-block': 'encoder_post_ln'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def encoder_block(x, p, heads):
    def residual_layer_norm(x, residual, g, b):
        # residuals are from preceeding encoder
        return layer_norm(x + residual, g, b)

    attn = self_attention(x, p, heads)
    x = residual_layer_norm(attn, x, p["ln1_g"], p["ln1_b"])
    ff = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return residual_layer_norm(ff, x, p["ln2_g"], p["ln2_b"])
