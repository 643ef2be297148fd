"""Blind round 30 (b30_05, issue 38): ported from kornia/kornia (kornia/contrib/vit.py:
PatchEmbedding sizes its positions (image_size // patch_size) ** 2; ClassificationHead is
linear(norm(x.mean(-2)))). The student's helper `ClassificationHead` is nested in vit_forward
already.

Mistakes:
1. num_patches: (H // P) ** 2, a square image assumed. Wrong for H != W (num_tokens calls it, but
   its cases are square and it keeps its points).
2. vit_forward: every token averaged, then the final LayerNorm on the pooled vector, instead of
   the LayerNorm on every row and then the [CLS] row.

Grader: at blind time and now, named: "`W // P` reads `H` where `W` belongs ... (right only when H
== W)" on patch-count; at blind time "`layer_norm(...)` comes after a pooling: `x[0]` is read as
`x.mean(axis=0)`" (now: "`x[0]` is read as `x.mean(axis=0)`: every row averaged ... and that order
is no part of the mistake") on vit-forward; vit-checkpoint observes the broken vit_forward. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def num_patches(H, W, P):
    """Patches per image, as kornia's PatchEmbedding sizes its positions: (image_size // patch_size) ** 2."""
    image_size, patch_size = H, P
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (image_size // patch_size) ** 2


def vit_forward(image, params):
    """kornia's VisionTransformer followed by its ClassificationHead."""
    def ClassificationHead(x, norm_g, norm_b, W, b):
        out = x.mean(-2)
        return layer_norm(out, norm_g, norm_b) @ W + b     # self.linear(self.norm(out))

    out = embed_image(image, params)                         # self.patch_embedding(x)
    for block in params["blocks"]:                           # self.encoder(out)
        out = encoder_block(out, block, params["heads"])
    return ClassificationHead(out, params["ln_g"], params["ln_b"], params["W_head"], params["b_head"])
