"""Blind round 45 (b45_12, issue 38): num_patches and linear_patch_embed ported from
`get_num_patches(height, width, stride=8)` in a TF/PyTorch patching utility (`height_padded =
math.ceil(height / stride) * stride`, `n_h = height_padded // stride`), nested in each function
that calls it, linear_patch_embed padding the image to that size; ANSWERS["positions"] =
"resolution".

Mistakes:
1. num_patches counts ceil(H/P) * ceil(W/P), the padded grid, instead of raising ValueError on
   sizes that P does not tile. Tiling sizes match.
2. linear_patch_embed zero-pads the image at the bottom and right to a multiple of P instead of
   raising ValueError. Tiling sizes match.
3. ANSWERS["positions"] = "resolution" instead of "permutation".

Grader: at blind time (fe6e9573) and now, all three named: "You rounded up, counting a partial
patch at each edge" (ceiling_count) on patch-count, "the image is zero-padded at the bottom and
right to a multiple of `P` before it is cut" on linear-patch-embed, "Positions do not let a ViT
take larger images" on why-positions. token-count is graded with the grader's num_patches. Every
mistake named, so in buggy/. Since session 32 the padding's place is said only where the calls
tell it: linear-patch-embed's refusal cases have zero weights, so every place gives zeros, and
its check says "the image is zero-padded to a multiple of `P` before it is cut (where the zeros
go, these calls do not tell ...)".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'linear-patch-embed': 'op:padded:linear_patch_embed/patchify:image-padded-to-tile-somewhere',
          'why-positions': 'positions:resolution'}


def num_patches(H, W, P):
    """Number of P x P patches of an H x W image."""

    def get_num_patches(height, width, stride=8):
        # Initial pad to get all strides in.
        height_padded = math.ceil(height / stride) * stride
        width_padded = math.ceil(width / stride) * stride
        # Calculate number of patches in the height and width dimensions.
        n_h = height_padded // stride
        n_w = width_padded // stride
        return (n_h, n_w), (height_padded, width_padded)

    (n_h, n_w), _ = get_num_patches(H, W, stride=P)
    return n_h * n_w


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e."""

    def get_num_patches(height, width, stride=8):
        # Initial pad to get all strides in.
        height_padded = math.ceil(height / stride) * stride
        width_padded = math.ceil(width / stride) * stride
        # Calculate number of patches in the height and width dimensions.
        n_h = height_padded // stride
        n_w = width_padded // stride
        return (n_h, n_w), (height_padded, width_padded)

    image = _as_hwc(image)
    H, W, C = image.shape
    _, (height_padded, width_padded) = get_num_patches(H, W, stride=P)
    image = np.pad(image, ((0, height_padded - H), (0, width_padded - W), (0, 0)))
    return patchify(image, P) @ W_e + b_e


ANSWERS["positions"] = "resolution"
