"""Blind round 54 (b54_10, issue 38): conv_equivalent from shilu10/Swin-Transformer-TF2
`swin_tiny/layers/patch_embed.py` (`Conv2D(kernel_size=patch_size, strides=patch_size)` with
`patch_size=(4, 4)`); embed_image from Ethan0x0000/learn01 `vit/vit.py` (ViTEmbeddings: cat cls,
then `x + self.pos_embed`), written in place.

Mistakes:
1. conv_equivalent returns Keras-style pairs `((P, P), (P, P))` instead of two integers
   `(P, P)`. Wrong for every P.
2. embed_image writes into `params["pos"]` (`out = params["pos"]; out[0] += cls; out[1:] +=
   tokens; return out`): the first call returns the right values, but it mutates the caller's
   positions and returns that same array. A second call with the same params (or vit_forward
   after embed_image on the same params) returns a different, wrong result.

Grader: at blind time (5f4a3d53) both named. Mistake 1 on both conv_equivalent checks: "In
`conv_equivalent`, each number of the result `(P, P)` is written as a (height, width) pair,
`((P, P), (P, P))`, as Keras' `kernel_size=(P, P), strides=(P, P)` and PyTorch's `_pair` take
them ...". Mistake 2 on three cls-and-positions checks: "the value is right, but `embed_image`
changed `params['pos']` in place" + "Change no array `embed_image` is given in place ...";
vit-checkpoint said it of `vit_forward` ("Change no array `vit_forward` is given in place ...
(a residual adds x back)"), where the write is in `embed_image`, which it calls.
Now named under the same names, vit-checkpoint's through the helper that wrote
(checks/written_by.py): "Change no array `embed_image` is given in place: `vit_forward` changed
`params['pos']` in place, through `embed_image` (see cls-and-positions). Compute into a new array
(`x = x - m`, not `x -= m`), or copy first: whoever calls `embed_image` may use the same array
again."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:sizes_as_pairs:conv_equivalent:each-as-a-pair',
          'cls-and-positions': 'changes_input_in_place',
          'vit-checkpoint': 'changes_input_in_place'}


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    patch_size = (P, P)
    return (patch_size, patch_size)


def embed_image(image, params):
    """The token sequence (N + 1, d): [CLS] then the patch tokens, plus the position embeddings."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    out = params["pos"]
    out[0] += params["cls"]
    out[1:] += x
    return out
