"""Blind round 77 (b77_01, issue 38): patchify and vit_forward ported from YiHsiu7893/CPA-Project
`Vit.py` (a Pulfer-style MNIST ViT with patchify loops).

Mistakes:
1. patchify (line 41 of the file as delivered): the image moved to (C, H, W) first,
   `image.transpose(2, 0, 1)`, then `patch.flatten()` (the torch version's channel-first
   habit): each patch is flattened (c, p1, p2) instead of (p1, p2, c). Shows only with C > 1.
2. patchify (lines 43-50): `n_patches = h // P` used for both grid axes and `patches` sized
   `n_patches ** 2` (the source assumes square images): a non-square image raises a
   broadcasting ValueError or gets wrong patches.
3. vit_forward (line 149): returns `softmax(logits)` (the source's head is
   `nn.Sequential(Linear, Softmax)`): probabilities instead of logits, on every input.

Grader: at blind time (15b4065f) and now, 92/110. Mistakes 1 and 2 named together on patchify
("the grid of patches is counted n x n from the height, ... for both loops ... Each patch is
also read from the image moved to (C, H, W), so it is flattened channel first, (c, p1, p2) ...
Loop over the columns with `W // P`"), mistake 3 on vit-forward ("the result ... goes through a
softmax over its last axis ... probabilities come back where the values themselves (logits)
belong"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:square_rows:patchify:columns-counted-from-H-rows-from-size-channels-first',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    h, w, c = image.shape
    num_patches(h, w, P)
    image = image.transpose(2, 0, 1)  # (c, h, w) like the torch version

    n_patches = h // P
    patches = np.zeros((n_patches ** 2, h * w * c // n_patches ** 2))
    patch_size = P

    for i in range(n_patches):
        for j in range(n_patches):
            patch = image[:, i * patch_size: (i + 1) * patch_size, j * patch_size: (j + 1) * patch_size]
            patches[i * n_patches + j] = patch.flatten()
    return patches


def vit_forward(image, params):
    out = embed_image(image, params)
    # Transformer Blocks
    for block in params["blocks"]:
        out = encoder_block(out, block, params["heads"])
    out = layer_norm(out, params["ln_g"], params["ln_b"])
    # Getting the classification token only
    out = out[0]
    # Map to output dimension, output category distribution
    return softmax(out @ params["W_head"] + params["b_head"])
