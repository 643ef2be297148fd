"""Blind round 7 (b7_01, issue 38): patchify and num_tokens after timm's
PatchEmbed(dynamic_img_pad=True).

Mistakes:
1. patchify: zero-pads the image up to a multiple of P (timm's dynamic_img_pad, the Swin /
   Trackron PatchEmbed `F.pad`) instead of raising ValueError. Shows only when P does not tile H
   or W.
2. num_tokens: counts ceil(H/P) * ceil(W/P) patches (the padded grid) and never raises. Shows
   only when P does not tile H or W.

Grader: num_tokens named (tokens_ceiling, "Rounding up counts a partial patch at each edge").
patchify only gets checklists ("16 does not tile 30 rows: raise ValueError rather than dropping
pixels", "Patches that do not tile the image must raise ValueError"); the padding is not named,
and "dropping pixels" is not what the code does (it pads).
Since session 14 the padding is observed (refusals: "returns what the lecture's gives for the
image zero-padded at the bottom and right to a multiple of P", pads_to_tile): an observation, not
a named mistake, so still in unnamed/.
Since session 16 (tiling): the padding is named (tiling.padded: the image zero-padded to a multiple
of P before it is cut): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'tokens_ceiling',
          'patchify': 'op:padded:patchify:image-padded-to-tile'}


def patchify(image, P):
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[..., np.newaxis]
    elif img.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {img.shape}")
    if P <= 0:
        raise ValueError("patch size must be positive")
    H, W, C = img.shape
    # dynamic padding (timm PatchEmbed(dynamic_img_pad=True)): pad bottom/right to a multiple of P
    pad_h = (P - H % P) % P
    pad_w = (P - W % P) % P
    if pad_h or pad_w:
        img = np.pad(img, ((0, pad_h), (0, pad_w), (0, 0)))
        H, W = H + pad_h, W + pad_w
    gh, gw = H // P, W // P
    x = img.reshape(gh, P, gw, P, C)
    x = np.transpose(x, (0, 2, 1, 3, 4))          # (gh, gw, P, P, C)
    return x.reshape(gh * gw, P * P * C)


def num_tokens(H, W, P, cls_token=True):
    if P <= 0:
        raise ValueError("patch size must be positive")
    grid = (math.ceil(H / P), math.ceil(W / P))    # the padded grid
    return grid[0] * grid[1] + int(bool(cls_token))
