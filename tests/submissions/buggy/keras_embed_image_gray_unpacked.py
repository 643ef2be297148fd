"""Blind round 52 (b52_11, issue 38): embed_image with the `H, W, C = image.shape` unpacking
common to Keras and torch patch-embedding layers, and an assert on the token count.

Mistakes:
1. embed_image: `H, W, C = image.shape` raises ValueError (not enough values to unpack) on a
   gray (H, W) image, where the API returns (N + 1, d). vit_forward on gray images raises too.
   (H, W, 1) and RGB images are right.

Grader: at blind time (db53909c), observed only: "Your `embed_image` is right for (H, W, C)
images, and raises ValueError for a 2-D (H, W) one: a 2-D image is one channel" on "RGB images,
random parameters" and the hidden check, the checklist on the worked example ("The sequence is
[CLS] (row 0) followed by the N patch tokens, then + pos: shape (N + 1, d).").
Now named on every failed check: "In `embed_image`, the shape of `image` is unpacked into three
sizes (`H, W, C = image.shape`): a 2-D (H, W) gray image raises ValueError (not enough values to
unpack), where the lecture's reads a 2-D image as one channel, (H, W, 1), as the
`linear_patch_embed` it is passed to does: read H, W from `image.shape[:2]`, or treat a 2-D
image as (H, W, 1), `image[..., None]`." (guards.py's gray-unpacked).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:guarded:embed_image:gray-unpacked'}


def embed_image(image, params):
    """Patch tokens with [CLS] prepended and positions added."""
    H, W, C = image.shape
    P = params["P"]
    n_patches = (H // P) * (W // P)
    x = patchify(image, P) @ params["W_e"] + params["b_e"]
    cls = np.broadcast_to(params["cls"], (1, x.shape[-1]))
    x = np.concatenate([cls, x], axis=0)
    assert x.shape[0] == n_patches + 1
    return x + params["pos"]
