"""Blind round 19 (b19_15, issue 38): patchify and the answers ported from Hugging Face's Pix2Struct
image processor (`torch_extract_patches`, written after PIL's `image.size` = (width, height)).

Mistakes:
1. patchify reads `image_width, image_height = image.shape[:2]` (PIL's order on a numpy array), so
   the image is reshaped `(W // P, P, H // P, P, C)`: scrambled patches when H != W.
2. ANSWERS["positions"] is "resolution" (Pix2Struct's variable-resolution positions), not
   "permutation".
The student's torch_extract_patches (top-level in the file) is nested in patchify here: the
builder replaces only the solution's own definitions.

Grader: at blind time and now, both named: `H // P` and `W // P` the other way round in the
reshape (op:sizes) and positions:resolution. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped', 'why-positions': 'positions:resolution'}


def patchify(image, P):
    """Pix2Struct's extract_flattened_patches; torch_extract_patches (top-level in the student's
    file) nested here."""
    def torch_extract_patches(image, patch_height, patch_width):
        image_width, image_height = image.shape[:2]
        num_channels = image.shape[2]
        rows = image_height // patch_height
        columns = image_width // patch_width
        patches = image.reshape(rows, patch_height, columns, patch_width, num_channels)
        patches = patches.transpose(0, 2, 1, 3, 4)
        return patches.reshape(rows, columns, patch_height * patch_width * num_channels)

    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (height, width) or (height, width, channels)")
    num_patches(image.shape[0], image.shape[1], P)
    patches = torch_extract_patches(image, P, P)
    rows, columns, depth = patches.shape
    return patches.reshape(rows * columns, depth)


ANSWERS["positions"] = "resolution"
