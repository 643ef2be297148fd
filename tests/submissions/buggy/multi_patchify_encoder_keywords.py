"""Two bugs, helpers called by their own parameter names: patchify walks the patch grid column
by column (its parameters named img and patch_size, and linear_patch_embed calls it
`patchify(img=image, patch_size=P)`), and encoder_block normalises after each residual
(post-LN; its heads parameter named n_head, and vit_forward calls it
`encoder_block(x, block, n_head=params["heads"])`)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed', 'encoder-block': 'encoder_post_ln'}
CORRECT = ("linear_patch_embed", "vit_forward")  # written in a student's style: they keep every point


def patchify(img, patch_size):
    img = _as_hwc(img)
    H, W, C = img.shape
    num_patches(H, W, patch_size)
    P = patch_size
    grid = img.reshape(H // P, P, W // P, P, C).transpose(2, 0, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(img=image, patch_size=P) @ W_e + b_e


def encoder_block(x, block, n_head):
    x = layer_norm(x + self_attention(x, block, n_head), block["ln1_g"], block["ln1_b"])
    return layer_norm(x + gelu(x @ block["W1"] + block["b1"]) @ block["W2"] + block["b2"],
                      block["ln2_g"], block["ln2_b"])


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, n_head=params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
