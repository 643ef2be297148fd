"""Blind round 49 (b49_05, issue 38): patchify from FluxML/Metalhead.jl, src/layers/embeddings.jl
(`PatchEmbedding`: `reshape(x, hp, P, wp, P, c, n)`, `permutedims(xpatch, (1, 3, 5, 2, 4, 6))`),
ported to numpy as `transpose(0, 2, 4, 1, 3)`; conv_equivalent from mindee/doctr's
`PatchEmbedding` (code-search id 71505522: `nn.Conv2d(channels, embed_dim,
kernel_size=self.patch_size, stride=self.patch_size)`, `patch_size` a tuple).

Mistakes:
1. Each patch is flattened in (c, p1, p2) order, channel first, where the API wants (p1, p2, c):
   wrong for C > 1, right for C = 1 and gray images.
2. conv_equivalent(P) returns a pair of pairs, `((P, P), (P, P))`, not `(P, P)`.

Grader: at blind time (7e618553) and now, both named: mistake 1 on patchify ("You flattened each patch
channel first, (c, p1, p2). That is the order of torch's Conv2d weights (d, C, P, P), not the
course's: ..."), mistake 2 on kernel-stride ("In `conv_equivalent`, each number of the result
`(P, P)` is written as a (height, width) pair, `((P, P), (P, P))`, as Keras' `kernel_size=(P, P),
strides=(P, P)` and PyTorch's `_pair` take them: ..."); vit-checkpoint observes patchify. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'kernel-stride': 'op:sizes_as_pairs:conv_equivalent:each-as-a-pair'}


def patchify(image, P):
    x = _as_hwc(image)
    h, w, c = x.shape
    if h % P != 0 or w % P != 0:
        raise ValueError(f"patch size {P} does not divide {h}x{w}")
    hp, wp = h // P, w // P
    xpatch = x.reshape(hp, P, wp, P, c)
    return xpatch.transpose(0, 2, 4, 1, 3).reshape(hp * wp, P * P * c)


def conv_equivalent(P):
    patch_size = (P, P)
    # nn.Conv2d(channels, embed_dim, kernel_size=self.patch_size, stride=self.patch_size)
    return (patch_size, patch_size)
