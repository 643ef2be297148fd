"""Blind round 78 (b78_12, issue 38): conv_equivalent and encoder_block ported from
sromero0889/handspring `hs-core/src/transformers/model.rs` (its "Attention is all you need"
comment: LayerNorm(x + Sublayer(x))).

Mistakes:
1. conv_equivalent (line 65 of the file as delivered): returns `(P, 1)`, a stride-1
   (overlapping-window) convolution, instead of (P, P).
2. encoder_block (lines 115-116): post-LN, each LayerNorm after its residual sum, instead of
   pre-LN: wrong on every call, vit_forward's too.

Grader: at blind time (ddfccf96) and now, 97/110. Mistake 1 named on kernel-stride ("Stride 1
slides the kernel one pixel at a time ... the kernel moves by a whole patch: stride P."), mistake
2 on encoder-block ("That is a post-LN block (LayerNorm after each residual sum, as in the 2017
Transformer). ViT is pre-LN"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one', 'encoder-block': 'encoder_post_ln'}


def conv_equivalent(P):
    # kernel_size, stride
    return (P, 1)


def encoder_block(x, p, heads):
    # (from Attention is all you need)
    # We employ a residual connection around each of the two sub-layers, followed by layer
    # normalization. That is, the output of each sub-layer is LayerNorm(x + Sublayer(x)).
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    x = layer_norm(x + gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"])
    return x
