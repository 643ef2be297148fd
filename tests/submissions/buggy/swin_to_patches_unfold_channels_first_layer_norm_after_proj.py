"""Blind round 69 (b69_03, issue 38): patchify and linear_patch_embed ported from
ManishGovind/Computer-Vision `Transformer/SwinTransformer/ToPatches.py`.

Mistakes:
1. patchify (line 77 of the file as delivered): the F.unfold order, each patch flattened (c,
   p1, p2), not (p1, p2, c). Wrong with C > 1 only.
2. linear_patch_embed (line 87): ToPatches' `self.norm = nn.LayerNorm(dim)` kept after the
   projection (unit gamma, zero beta). Wrong on every input, C = 1 included.

Grader: at blind time (cb37e6da) and now, 93/110, both named. Mistake 1 on patchify ("You
flattened each patch channel first, (c, p1, p2)"); mistake 2 on linear-patch-embed ("each row
... is standardised, (x - mean) / sqrt(var + eps), before it is returned (a LayerNorm without
its gain and shift ...)"), graded with the grader's patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'linear-patch-embed': ('op:standardised_after:linear_patch_embed:'
                                 'standardised-after-linear')}


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C), like F.unfold(x, kernel_size=P, stride=P).movedim(1, -1)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    x = image.transpose(2, 0, 1)                       # (C, H, W) as torch wants it
    # F.unfold: each column is one block, flattened as (C, kh, kw)
    x = x.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)
    x = x.reshape(-1, C * P * P)                       # .movedim(1, -1)
    return x


def linear_patch_embed(image, W_e, b_e, P):
    """ToPatches.forward: unfold -> self.proj (Linear) -> self.norm (LayerNorm(dim))."""
    x = patchify(image, P)
    x = x @ W_e + b_e                                   # self.proj
    dim = W_e.shape[1]
    x = layer_norm(x, np.ones(dim), np.zeros(dim))      # self.norm = nn.LayerNorm(dim)
    return x
