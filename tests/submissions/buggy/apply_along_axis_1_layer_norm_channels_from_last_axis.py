"""Blind round 8 (b8_11, issue 38): StackOverflow-style numpy: a layer_norm applied row by row
with np.apply_along_axis, and a linear_patch_embed that reshapes the image itself.

Mistakes:
1. layer_norm: a 1-D input is normalised directly, anything else with
   `np.apply_along_axis(_normalize_row, 1, x, ...)`: axis 1 is the last axis only for 2-D
   inputs. Shows only on 3-D+ inputs (wrong values, or a broadcast error).
2. linear_patch_embed: `C = image.shape[-1]` with no 2-D promotion (chaiNNer-org/chaiNNer#2206,
   jbohnslav/opencv_transforms#6), so a 2-D (gray) image takes C = W and the reshape raises.
   Shows only for 2-D images.

Grader: both observed: only_2d_inputs ("right for inputs of two axes (T, d), wrong for one with
leading axes (3, 4, 2): work on the last axis") and only_3d_images ("right for (H, W, C) images,
wrong for a 2-D (H, W) one"); the worked example (a 2-D image) gets its arithmetic checklist.
Since session 15 the layer_norm applied along axis 1 is named on layer-norm (its broadcast errors
the student's); linear_patch_embed's C from the last axis was still only observed; since session 16 it is named
(layouts.last_size_as_given: "`C` is read from the last axis of `image` as it is given", the
reshape's ValueError message reproduced): every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:along_axis_1:layer_norm:along-axis-1',
          'linear-patch-embed': 'op:last_size_as_given:linear_patch_embed/patchify:C-from-image-as-given'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis."""
    def _normalize_row(row, gamma, beta, eps):
        mu = row.mean()
        var = ((row - mu) ** 2).mean()
        return (row - mu) / np.sqrt(var + eps) * gamma + beta
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return _normalize_row(x, gamma, beta, eps)
    return np.apply_along_axis(_normalize_row, 1, x, gamma, beta, eps)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,)."""
    image = np.asarray(image)
    H, W = image.shape[0], image.shape[1]
    C = image.shape[-1]
    if P <= 0 or H % P or W % P:
        raise ValueError("image size must be a multiple of the patch size")
    patches = image.reshape(H // P, P, W // P, P, C).swapaxes(1, 2).reshape(-1, P * P * C)
    return patches @ W_e + b_e
