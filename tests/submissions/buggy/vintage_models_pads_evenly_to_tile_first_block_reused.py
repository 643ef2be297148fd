"""Blind round 66 (b66_14, issue 38): patchify and vit_forward
ported from Yann-CV/vintage-models (`components/patch.py` PatchConverter,
`vision_transformers/vit/vit.py`). The student's top-level `_padding_values_to_be_multiple` is
nested in patchify here: the builder replaces only the solution's own definitions.

Mistakes:
24. patchify (line 79 of the file as delivered): like PatchConverter (PaddingMode.CONSTANT) it
    zero-pads the image, evenly on both sides (lines 62-64), up to a multiple of P instead of
    raising ValueError. Wrong on non-tiling sizes only.
25. vit_forward (lines 198-201): ViTEncoder applies one block `layer_count` times: the port runs
    `params["blocks"][0]` len(blocks) times. Wrong with 2 blocks or more.

Grader: at blind time (f4776223) and now, 96/110. Mistake 25 named on vit-forward ("every pass of
`for block in params['blocks']` uses the first one, `params['blocks'][0]`"); mistake 24 only
observed on patchify's non-tiling checks, and at blind time wrongly: "returns what the model
solution's gives for the image zero-padded at the bottom and right", of code that pads evenly (a
case one pixel short, where both give the same). Mended since (where the zeros go is said only
where the cases tell it apart, tests/test_observations_hold.py): now "zero-padded to a multiple
of P: ... raise ValueError instead of padding", still an observation. Named since (session 32,
error_model/tiling.py's `padded` at each place, told apart by the probe sizes): patchify's
non-tiling checks say the image is zero-padded evenly on both sides, the odd row or column at the
bottom or right, to a multiple of P; every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-evenly-to-tile',
          'vit-forward': 'op:loop:vit_forward:block-first'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C).

    PatchConverter: pad the image with zeros (PaddingMode.CONSTANT) up to a multiple of the
    patch size, then unfold with kernel P and stride P. Patches in raster order, (p1, p2, c).
    """
    def _padding_values_to_be_multiple(size, multiple):
        missing = (-size) % multiple
        return (missing // 2, missing - missing // 2)

    image = _as_hwc(image)
    H, W, C = image.shape
    if P <= 0:
        raise ValueError("patch size must be positive")
    pad_w = _padding_values_to_be_multiple(W, P)
    pad_h = _padding_values_to_be_multiple(H, P)
    image = np.pad(image, (pad_h, pad_w, (0, 0)), mode="constant", constant_values=0)
    H, W, C = image.shape
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def vit_forward(image, params):
    """Logits (num_classes,) of one image, as ViT.forward (without the final softmax).

    ViTEncoder: one self-attention residual and one MLP residual, applied layer_count times.
    """
    patch_embeddings = embed_image(image, params)
    layer_count = len(params["blocks"])
    encoder = params["blocks"][0]
    x = patch_embeddings
    for _ in range(layer_count):
        x = encoder_block(x, encoder, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]   # encoded[:, 0, :]
