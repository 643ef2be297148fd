"""Blind round 19 (b19_02, issue 38): patchify and vit_forward ported from Apple's ml-cvnets
MobileViT (`MobileViTBlock.unfolding`, TransformerEncoder), its names (patch_h, num_patch_h,
in_channels).

Mistakes:
1. patchify's unfolding transposes the in-patch axes, `transpose(0, 2, 3, 1, 4)`: a patch is
   flattened column by column (p2, p1, c) instead of (p1, p2, c).
2. vit_forward: a stale variable. The final norm's result is stored as `out`, but the head reads
   `x[0]`, the un-normalised tokens.

Grader: at blind time, the patch transposed was named (patchify_patch_transposed); the
stale variable was told by its effect, vit_final_ln_skipped ("You skipped the final LayerNorm"):
true of the output, but the file does call layer_norm and drops its result (the measurement then:
OBSERVED). Since session 16 that mistake's sentence says what this code does too: "The head reads
tokens that did not go through the final LayerNorm (skipped, or its result left unused)", so both
mistakes are named: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_patch_transposed', 'vit-forward': 'vit_final_ln_skipped'}


def patchify(image, P):
    feature_map = np.asarray(image)
    if feature_map.ndim == 2:
        feature_map = feature_map[:, :, np.newaxis]
    elif feature_map.ndim != 3:
        raise ValueError("Expected a (H, W) or (H, W, C) image, got {}".format(feature_map.shape))
    orig_h, orig_w, in_channels = feature_map.shape
    patch_h = patch_w = P
    num_patch_h = orig_h // patch_h
    num_patch_w = orig_w // patch_w
    num_patches(orig_h, orig_w, P)
    patches = feature_map.reshape(num_patch_h, patch_h, num_patch_w, patch_w, in_channels)
    # [n_h, p_h, n_w, p_w, C] -> [n_h, n_w, p_w, p_h, C]
    patches = patches.transpose(0, 2, 3, 1, 4)
    return patches.reshape(num_patch_h * num_patch_w, patch_h * patch_w * in_channels)


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    out = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
