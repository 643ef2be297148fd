"""Blind round 51 (b51_11, issue 38): encoder_block ported from dna2github/dna2sevord,
study/ai/transformer.md (`(norm1) = norm(X + multi-head_attention)`, `feedforward = ReLu(X.W1 +
b1).W2 + b2`, `(norm2) = norm(norm1 + feedforward(norm1))`).

Mistakes:
1. Post-LN placement: `LN1(x + attn(x))`, then `LN2(h + mlp(h))`: attention sees the raw x and
   the output is normalised; the API's pre-LN block is `x + attn(LN1(x))`, then `x +
   mlp(LN2(x))`.
2. ReLU in the MLP instead of GELU.
vit_forward inherits both.

Grader: at blind time (b53db91d) and now, both named on encoder-block: "2 mistakes at once: (1)
That is a post-LN block (LayerNorm after each residual sum, as in the 2017 Transformer). ViT is
pre-LN: ... (2) The MLP uses ReLU; ViT's MLP uses GELU, x * Phi(x) (the tanh approximation is
fine)."; vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln+encoder_relu'}


def encoder_block(x, p, heads):
    norm1 = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    feedforward = np.maximum(0.0, norm1 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    norm2 = layer_norm(norm1 + feedforward, p["ln2_g"], p["ln2_b"])
    return norm2
