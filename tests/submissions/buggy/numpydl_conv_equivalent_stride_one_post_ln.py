"""Blind round 73 (b73_06, issue 38): conv_equivalent and encoder_block ported from
chaoming0625/NumpyDL `npdl/layers/convolution.py`.

Mistakes:
1. conv_equivalent (line 82 of the file as delivered): `(P, 1)`, the layer's default stride=1
   kept.
2. encoder_block (lines 127-129): post-LN, `layer_norm(x + attn(x))` and
   `layer_norm(x + mlp(x))`, instead of pre-LN. Wrong on every input.

Grader: at blind time (6245b55a) and now, 97/110. Mistake 1 named on kernel-stride ("Stride 1 slides
the kernel one pixel at a time ... the kernel moves by a whole patch: stride P"); mistake 2 on
encoder-block ("That is a post-LN block ... ViT is pre-LN"); vit-checkpoint observes the block.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one',
          'encoder-block': 'encoder_post_ln'}


def conv_equivalent(P):
    return (P, 1)


def encoder_block(x, p, heads):
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    h = gelu(np.dot(x, p["W1"]) + p["b1"])
    x = layer_norm(x + np.dot(h, p["W2"]) + p["b2"], p["ln2_g"], p["ln2_b"])
    return x
