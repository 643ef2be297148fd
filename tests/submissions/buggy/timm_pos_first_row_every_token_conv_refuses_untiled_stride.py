"""Blind round 12 (b12_04, issue 38): Source style ported: timm VisionTransformer (pos_embed is a
(1, N + 1, d) parameter, `x = x + self.pos_embed`) and a Keras Conv2D docs/"valid padding"
tutorial which says the output is only defined when the windows fit exactly.

Mistake 1 (embed_image): the student strips the batch axis of timm's (1, N + 1, d) pos_embed with
`pos = params["pos"][0]`; here pos is already (N + 1, d), so [0] is its first row and every token
(the [CLS] and all patches) gets pos[0]. Right: add pos row by row (row i to token i). Shows
whenever the position rows differ.
Mistake 2 (conv_patch_embed): raises ValueError when (H - k) % stride != 0 or (W - k) % stride != 0
("windows must fit exactly"). Right: a valid convolution floors, H' = (H - k)//stride + 1, and
only k > H or k > W raises. Shows only when the stride does not tile the remaining rows/columns
(e.g. H=7, k=3, stride=3); otherwise exact.

Grader, blind (30ff0c3): WRONG on the worked example: embed_positions_forgotten ("You forgot the positions"), but the
code adds params["pos"], only its first row to every token; the other checks observe it
(some_rows_wrong, "only in 1 of 7 rows (row 0)") and why-positions gives the bag-of-tiles
checklist. The conv refusal gets its own traceback only, no hint. Since: a mistake named on a
check of one or two values must explain the function's other failures too (mistakes.py,
unexplained_elsewhere and THIN): the worked example is observed like the others. Since choices.first_row: the first row
for every token is named.
Since session 17 the conv refusal is named on kernel-stride (kernel_fit.kernel_fit, weighed by
`checks/kinds/refusals.py` with its probe images: the windows must fit exactly).
Every mistake named: why-positions' property gives its verdict, a bag of tiles (every token gets
the same row, so moving the tiles only reorders them), and vit-checkpoint observes the broken
functions it runs (an integration check's observation, not in EXPECT). Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_fit:conv_patch_embed:windows-fit-exactly',
          'cls-and-positions': "op:first_row:embed_image:params['pos']-first-row-only",
          'why-positions': 'bag_of_tiles'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"].reshape(1, -1)
    x = np.concatenate((cls_token, x), axis=0)
    pos_embed = params["pos"][0]          # (1, N + 1, d) -> (N + 1, d)
    return x + pos_embed


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    if (H - k) % stride or (W - k) % stride:
        raise ValueError(f"with padding='valid' the {k}x{k} windows at stride {stride} do not fit {H}x{W}")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    out = np.zeros((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out
