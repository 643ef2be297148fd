"""Blind round 24 (b24_04, issue 38): encoder_block and vit_forward ported from ONNX Runtime's fused
BERT graph (com.microsoft.SkipLayerNormalization, LayerNorm(input + skip (+ bias)), after the
Attention and after MatMul + BiasGelu + MatMul). The student's top-level helper `_skip_layer_norm`
is nested in encoder_block here: the builder replaces only the solution's own definitions.

Mistakes:
1. encoder_block is post-LN: each residual sum is normalised, `LN(x + attn(x))`, `LN(x +
   mlp(x))`, instead of each branch reading a LayerNorm of x.
2. vit_forward skips the final LayerNorm ("the last SkipLayerNormalization output is already
   normalised").

Grader: at blind time and now, both named: a post-LN block on encoder-block, and the final
LayerNorm skipped on vit-forward; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln',
          'vit-forward': 'vit_final_ln_skipped'}


def encoder_block(x, p, heads):
    def _skip_layer_norm(x, skip, gamma, beta, bias=None, epsilon=1e-6):
        """com.microsoft.SkipLayerNormalization: LayerNorm(input + skip (+ bias))."""
        s = x + skip if bias is None else x + skip + bias
        return layer_norm(s, gamma, beta, epsilon)

    attn_out = self_attention(x, p, heads)                         # com.microsoft.Attention
    x = _skip_layer_norm(attn_out, x, p["ln1_g"], p["ln1_b"])
    ff = gelu(x @ p["W1"] + p["b1"]) @ p["W2"]                      # MatMul + BiasGelu + MatMul
    return _skip_layer_norm(ff, x, p["ln2_g"], p["ln2_b"], bias=p["b2"])


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # the last SkipLayerNormalization output is already normalised
    return x[0] @ params["W_head"] + params["b_head"]
