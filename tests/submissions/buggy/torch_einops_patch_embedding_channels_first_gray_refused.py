"""Blind round 45 (b45_02, issue 38): patchify ported from a PyTorch PatchEmbedding built on
einops, `Rearrange('b c (h p1) (w p2) -> b (h w) (c p1 p2)')`, written with numpy reshapes after
moving the channels first with `image.transpose(2, 0, 1)`.

Mistakes:
1. Each patch is flattened channel first, (c, p1, p2), instead of the lecture's (p1, p2, c).
   Right for one channel only.
2. `np.asarray(image).transpose(2, 0, 1)` raises "axes don't match array" on a 2-D (H, W) gray
   image, which the API reads as one channel.
linear_patch_embed, embed_image and vit_forward inherit both through patchify.

Grader: at blind time (fe6e9573) and now, both named: "You flattened each patch channel first,
(c, p1, p2)" (patchify_channel_first) on the RGB and hidden checks, and "2 mistakes at once: (1)
In `patchify`, a 2-D (H, W) gray image is refused ... (2) ..." on the worked example and grayscale
checks; vit-checkpoint observes the broken patchify. Every mistake named, so in buggy/.
Now mistake 2 is named alone on the worked example and grayscale checks, by the student's own
line: "In `patchify`, `image`'s axes are permuted as three, an (H, W, C) image's
(`image.transpose(2, 0, 1)` or another order, channels first, ...), which a 2-D (H, W) image does
not have: numpy's ValueError, axes don't match array; ..." (inputs.axes_permuted, b48_07: on a
gray image the channel order shows nothing); mistake 1 as before on the RGB and hidden checks.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:axes_permuted:patchify:image-2d-axes-permuted-as-three'}
ALIASES = ('patchify_channel_first',)


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    # the torch module works on (c, H, W): move the channels first
    img = np.asarray(image).transpose(2, 0, 1)
    c, H, W = img.shape
    if H % P != 0 or W % P != 0:
        raise ValueError(f"image {H}x{W} is not divisible by patch size {P}")
    h, w = H // P, W // P
    # 'c (h p1) (w p2) -> (h w) (c p1 p2)'
    x = img.reshape(c, h, P, w, P)
    x = x.transpose(1, 3, 0, 2, 4)
    return x.reshape(h * w, c * P * P)
