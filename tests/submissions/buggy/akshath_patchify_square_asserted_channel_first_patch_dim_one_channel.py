"""Blind round 55 (b55_01, issue 38): akshathmangudi/Re-Implementation (utils/methods.py
`patchify`, the torch MNIST loop): patchify and patch_dim.

Mistakes:
1. M1 patchify: keeps the source's `assert h == w, "Only square images supported"`, placed after
   the tiling check. Any non-square image that tiles (8x12 C=3, 12x8, 4x8 gray, 8x4 uint8) raises
   AssertionError where the API returns (N, P*P*C); square images still work.
2. M2 patchify: the source's channel-first `patch.flatten()`: the image is transposed to
   (c, h, w), so each row comes out in (c, p1, p2) order, not (p1, p2, c). It shows only when
   C > 1 (a square 8x8x3 image); C = 1 and gray images still match.
3. M3 patch_dim: default `C=1` (carried over from the MNIST source): patch_dim(16) returns 256,
   not 768; calls that pass C match.

Grader: at blind time (cdc1de9a), 3 named ("In `patch_dim`, `C` defaults to 1 instead of 3:
right whenever `C` is given, wrong where it is left out."); 1 checklist only: every patchify
check fails first on a non-square case ("got: AssertionError: Only square images supported"),
with "[checklist] hint: Row n is patch n in raster order over the patch grid ..."; 2 not named:
no single rewrite reproduces the checks (the assert raises first), vit-checkpoint only observes
"Your `patchify` loses points in its own exercise (patchify)".
Now named: 1 and 2 as a pair on every patchify check ("2 mistakes at once: (1) In `patchify`, a
non-square image (H != W) is refused (an error is raised for it), where the model solution's
takes an H x W image whatever its sides: accept every input the model solution's function
accepts. (2) In `patchify`, each patch is flattened channels first: the channel varies slowest
..."): guards.py's non-square-refused with the channel-first flatten; 3 as before.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'patchify': 'op:guarded:patchify:non-square-refused'
                      '+op:channels_first:patchify:patch-flattened-channels-first'}


def patch_dim(P, C=1):
    """Numbers in one flattened P x P x C patch, before the linear map."""
    return P * P * C


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel."""
    images = np.asarray(image)
    if images.ndim == 2:
        images = images[:, :, None]
    if images.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {images.shape}")
    h, w, c = images.shape
    num_patches(h, w, P)
    assert h == w, "Only square images supported"
    patch_size = P
    n_patches = h // patch_size
    image = images.transpose(2, 0, 1)  # (c, h, w)
    patches = np.zeros((n_patches ** 2, h * w * c // n_patches ** 2))

    for i in range(n_patches):
        for j in range(n_patches):
            patch = image[:, i * patch_size:(i + 1) * patch_size, j * patch_size:(j + 1) * patch_size]
            patches[i * n_patches + j] = patch.flatten()
    return patches
