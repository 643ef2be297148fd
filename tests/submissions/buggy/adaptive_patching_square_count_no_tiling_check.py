"""Blind round 68 (b68_04, issue 38): num_patches and conv_equivalent ported from
AlecFessler/AdaptivePatchingViT `modules/PatchEmbed.py` (PatchEmbed.__init__: `self.num_patches
= (img_size // patch_size) ** 2` and the Conv2d with kernel_size = stride = patch_size):
conv_equivalent right.

Mistakes:
7. num_patches (lines 21-24 of the file as delivered): `(img_size // patch_size) ** 2` with
   `img_size = H`: the height only, so a non-square image gets the wrong count (8 x 12, P = 4:
   4 instead of 6). Wrong on non-square images only.
8. num_patches (line 24): floors instead of raising ValueError when P does not tile (7 x 8,
   P = 2: 9). Wrong for sizes P does not tile only.

Grader: at blind time (766069c5) and now, 105/110, both named on patch-count's four failed checks
("In `num_patches`, `W // P` reads `H` where `W` belongs: in effect `H // P`, a copy of its
sibling term"; on the tiling checks "2 mistakes at once: (1) In `num_patches`, there is no tiling
test ... raise ValueError when P does not divide H or W. (2) ... `W // P` reads `H`"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H'}
CORRECT = ('conv_equivalent',)


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    # PatchEmbed.__init__: self.num_patches = (img_size // patch_size) ** 2
    img_size = H
    patch_size = P
    return (img_size // patch_size) ** 2


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    # self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
    kernel_size = P
    stride = P
    return (kernel_size, stride)
