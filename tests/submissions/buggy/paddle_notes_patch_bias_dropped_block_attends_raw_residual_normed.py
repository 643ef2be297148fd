"""Blind round 36 (b36_01, issue 38): linear_patch_embed and encoder_block ported from the
PaddlePaddle ViT class notes ("Written By: Dr. Zhu, Recorded By: Hatimwen", 2021.11.24:
PatchEmbedding with nn.Conv2D(..., bias_attr=False), Encoder.forward: h = x; x = attn_norm(x);
h = attn(h); x = x + h; h = x; x = mlp_norm(x); h = mlp(x); x = x + h).

Mistakes:
1. linear_patch_embed drops b_e (the Conv2D is built with bias_attr=False).
2. encoder_block: the attention reads the raw x, not LN1(x), and both residuals add the
   LayerNorm's output instead of the un-normalised stream.

Grader: at blind time (9ebbf4a) #1 named ("You left out the bias") on linear-patch-embed, with a
true observation on kernel-stride's equivalence check; #2 observed only (encoder-block's generic
checklist: "the pre-LN order (LayerNorm before each branch), both residuals"). Now #2 named too,
"2 mistakes at once": the MLP's residual adds back `layer_norm(x, ...)` instead of `x`, and
`x + self_attention(layer_norm(x, ...), ...)` computed as `layer_norm(x, ...) +
self_attention(x, ...)` (op:norm_on_stream: the port's `h = x; x = norm(x); h = f(h)` names
mixed up). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bias_forgotten',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2'
                           '+op:norm_on_stream:encoder_block:layer_norm-on-the-residual'}


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbedding.forward: patch_embed (Conv2D, kernel = stride = patch), flatten(2), transpose."""
    x = patchify(image, P)                    # one row per kernel position
    # nn.Conv2D(in_channels, embed_dim, kernel_size=patch_size, stride=patch_size, bias_attr=False)
    x = x @ W_e                               # [h' * w', embed_dim]
    return x


def encoder_block(x, p, heads):
    """Encoder.forward (attn_norm, attn, mlp_norm, mlp)."""

    def mlp(x):                               # MLp: fc1, GELU, dropout, fc2, dropout
        x = x @ p["W1"] + p["b1"]
        x = gelu(x)
        x = x @ p["W2"] + p["b2"]
        return x

    h = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])     # attn_norm
    h = self_attention(h, p, heads)
    x = x + h

    h = x
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])     # mlp_norm
    h = mlp(x)
    x = x + h
    return x
