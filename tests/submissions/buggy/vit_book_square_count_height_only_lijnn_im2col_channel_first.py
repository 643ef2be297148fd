"""Blind round 49 (b49_09, issue 38): num_patches from the `VitInputLayer` of a ViT book
(code-search id 60110203549: `self.num_patch = self.num_patch_row**2`, "height and width assumed
equal"); conv_patch_embed from lijnn's `im2col_for_O` (id 36263461840: `col (N, C, OH, OW, KH,
KW)`, then `transpose(0, 2, 3, 1, 4, 5)`), applied to `image.transpose(2, 0, 1)[None]` and
multiplied by `K.reshape(-1, d)`.

Mistakes:
1. The count is `(H // P) ** 2`, the tiling checked on H only: a non-square image gets the wrong
   count (8x16 with P=4 gives 4), and a width that does not tile is not refused when H tiles.
2. The im2col rows are flattened (c, kh, kw) but the kernel (kh, kw, c): wrong for every C > 1,
   right for gray and C = 1.

Grader: at blind time (7e618553) and now, both named: mistake 1 on patch-count ("In `num_patches`, `W //
P` reads `H` where `W` belongs: `H // P`, a copy of its sibling term (right only when H == W)."
and, hidden, "2 mistakes at once: (1) In `num_patches`, the tiling test `check_tiling(H, W, P)`
tests the height only (`H % P`): ... (2) ..."), mistake 2 on kernel-stride ("In
`conv_patch_embed`, `windows` and `K` are flattened each in its own order ... Each window is read
channel first, (c, p1, p2), torch's weight order, while the kernel is flattened (p1, p2, c), the
course's: right for one channel only. ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only+op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def num_patches(H, W, P):
    if H % P != 0:
        raise ValueError(f"image size {H} is not divisible by patch size {P}")
    num_patch_row = H // P
    num_patch = num_patch_row**2
    return num_patch


def conv_patch_embed(image, K, b, stride):
    img = _as_hwc(image).transpose(2, 0, 1)[None]  # (N, C, H, W)
    N, C, H, W = img.shape
    KH, KW, _, d = K.shape
    if KH > H or KW > W:
        raise ValueError(f"kernel {KH}x{KW} is larger than the {H}x{W} image")
    SH = SW = stride
    OH = (H - KH) // SH + 1
    OW = (W - KW) // SW + 1

    col = np.ndarray((N, C, OH, OW, KH, KW), dtype=img.dtype)
    for j in range(OH):
        h_start = j * SH
        for i in range(OW):
            w_start = i * SW
            col[:, :, j, i, :, :] = img[:, :, h_start:h_start + KH, w_start:w_start + KW]
    col = col.transpose((0, 2, 3, 1, 4, 5)).reshape((N * OH * OW, -1))

    out = col @ K.reshape(-1, d) + b
    return out.reshape(OH, OW, d)
