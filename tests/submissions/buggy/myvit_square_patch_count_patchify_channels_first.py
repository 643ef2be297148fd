"""Blind round 64 (b64_01, issue 38): num_patches and patchify ported from bAraia/ML-projects
`README.md` (the "ViT from scratch" walkthrough: MyViT's `n_patches` per side, its patchify
loops).

Mistakes:
1. num_patches (line 26 of the file as delivered, `n_patches = H // P` at line 25): MyViT's
   patches per side squared, `n_patches ** 2`. Wrong only when H != W (num_tokens inherits it).
2. patchify (line 86, with the transpose at line 74): the image turned channels first, (C, H, W),
   and each patch flattened in (c, p1, p2) order instead of (p1, p2, c). Wrong only when C > 1.

Grader: at blind time (0cd43d22) and now, 97/110, both named. Mistake 1 on patch-count's
non-square and random checks ("In `num_patches`, the model solution's `W // P` reads `H` where
`W` belongs: `H // P`, a copy of its sibling term (right only when H == W)."). Mistake 2 on
patchify's RGB and random checks ("You flattened each patch channel first, (c, p1, p2). ...
inside a patch the order is row, column, channel, (p1, p2, c)"); vit-checkpoint observes
patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Like MyViT: n_patches is the number of patches along one side, the grid is n_patches ** 2.
    """
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("Input shape not entirely divisible by number of patches")
    n_patches = H // P
    return n_patches ** 2


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Port of patchify(images, n_patches): the image is channels first, (C, H, W), like the
    (N, C, H, W) MNIST batch, and every sub-image is cut with slices and flattened.
    """
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[None, :, :]            # (1, H, W)
    elif image.ndim == 3:
        image = image.transpose(2, 0, 1)     # (H, W, C) -> (C, H, W)
    else:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    c, h, w = image.shape
    if P <= 0 or h % P != 0 or w % P != 0:
        raise ValueError("Input shape not entirely divisible by number of patches")

    n_h, n_w = h // P, w // P
    patches = np.zeros((n_h * n_w, h * w * c // (n_h * n_w)), dtype=float)
    for i in range(n_h):
        for j in range(n_w):
            patch = image[:, i * P: (i + 1) * P, j * P: (j + 1) * P]
            patches[i * n_w + j] = patch.flatten()
    return patches
