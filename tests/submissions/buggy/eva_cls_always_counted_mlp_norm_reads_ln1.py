"""Blind round 21 (b21_14, issue 38): num_tokens and encoder_block ported from BAAI's EVA
(baaivision/EVA, modeling_finetune.py: Block with norm1 / norm2, attn, mlp, the cls_token always
prepended). The student's `norm1`, `norm2` and `mlp` are already nested in encoder_block.

Mistakes:
1. num_tokens always counts the [CLS] token (EVA always prepends cls_token): the `cls_token`
   flag is accepted and ignored.
2. encoder_block normalises the MLP branch with the first LayerNorm's parameters (`ln1_g`,
   `ln1_b`: norm1 copied for norm2).

Grader: at blind time and now, both named: [CLS] counted with cls_token=False, and the second
layer_norm given p['ln1_g'], p['ln1_b']; vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + 1


def encoder_block(x, p, heads):
    def norm1(t):
        return layer_norm(t, p["ln1_g"], p["ln1_b"])

    def norm2(t):
        return layer_norm(t, p["ln1_g"], p["ln1_b"])

    def mlp(t):
        return gelu(t @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = x + self_attention(norm1(x), p, heads)
    x = x + mlp(norm2(x))
    return x
