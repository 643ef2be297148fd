"""Blind round 57 (b57_08, issue 38): patchify and vit_forward ported from LuxDL/Boltz.jl
`src/vision/vit.jl` (`__patch_embedding`, `VisionTransformer`: `im_width, im_height = imsize`,
`Chain(..., Dense(embed_planes, num_classes, tanh))`). The student's `_image` (top-level in the
file) is nested in patchify here: the builder replaces only the solution's own definitions.

Mistakes:
13. patchify (lines 44-49 of the file as delivered) follows Julia's `im_width, im_height =
    imsize` on `x.shape[:2]` (so `im_width` is really H), then reshapes to
    `(im_height // P, P, im_width // P, P, C)`, that is `(W // P, P, H // P, P, C)`: the grid's
    sides are swapped. Wrong only for H != W; square images are right.
14. vit_forward (line 140) keeps Boltz's head `Dense(embed_planes, num_classes, tanh)`: the logits
    are squashed with `np.tanh`. Wrong on every input.

Grader: at blind time (84f876fc) and now, both named. Mistake 13 on patchify's RGB, grayscale and
hidden checks ("In `patchify`, the model solution's `image.reshape(H // P, P, W // P, P, C)` is
given its `H // P` and `W // P` the other way round,
`image.reshape(W // P, P, H // P, P, C)` (H for W: the same only where they are equal)."); the
exercises that call patchify keep full marks around it. Mistake 14 on vit-forward's two checks
("In `vit_forward`, the result goes through tanh before it is returned: values squashed into
(-1, 1) come back where the values themselves belong."); vit-checkpoint observes vit_forward.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'vit-forward': 'op:output_activation:vit_forward:result-through-tanh'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    def _image(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x.reshape(x.shape + (1,))
        if x.ndim != 3:
            raise ValueError("need an (H, W) or (H, W, C) array")
        return x

    x = _image(image)
    im_width, im_height = x.shape[0], x.shape[1]
    in_channels = x.shape[2]
    patch_width, patch_height = P, P
    if P < 1 or (im_width % patch_width != 0) or (im_height % patch_height != 0):
        raise ValueError("patch size does not tile the image")
    grid = x.reshape(im_height // patch_height, patch_height, im_width // patch_width, patch_width, in_channels)
    grid = grid.transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, patch_height * patch_width * in_channels)


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = x[0, :]                                           # pool = :class -> x[:, 1, :]
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.tanh(x @ params["W_head"] + params["b_head"])
