"""Blind round 42 (b42_06, issue 38): linear_patch_embed ported from ryotomatsuba/VideoPrediction,
models/predrnn/utils/preprocess.py (the PyTorch reshape_patch, whose `a.permute(0,1,2,4,3,5,6)`
result is thrown away), one frame, no batch or sequence axes.

Mistakes:
1. The port keeps the discarded `a.transpose(0, 2, 1, 3, 4)`: the two reshapes make the patches
   raw row segments of the image (image.reshape(N, P*P*C)), not P x P tiles. Agrees when the
   image is one patch wide; differs as soon as W > P.

Grader: at blind time (e77cb46) and now, named (linear_embed_bare_reshape: "Your tokens are
those of image.reshape(N, P*P*C): consecutive pixels of a row rather than P x P tiles") on the
worked example, RGB and hidden checks. kernel-stride's equivalence check runs the file's
linear_patch_embed (a true observation pointing at it), vit-checkpoint observes it too. Every
mistake named, so in buggy/. Since blind round 56 the session says it from the source as the
line that threw the transpose away (report/discarded.py): "In `linear_patch_embed`,
`a.transpose(0, 2, 1, 3, 4)` on line 95 returns a new array that is never used, so the code
after it runs as if it were not there: assign it (`a = a.transpose(...)`)."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bare_reshape'}


def linear_patch_embed(image, W_e, b_e, P):
    """reshape_patch from PredRNN (one frame, no batch/sequence axes), then the linear map."""
    img_tensor = _as_hwc(image)
    img_height, img_width, num_channels = img_tensor.shape
    num_patches(img_height, img_width, P)
    patch_size = P
    a = np.reshape(img_tensor, [img_height // patch_size, patch_size,
                                img_width // patch_size, patch_size,
                                num_channels])
    a.transpose(0, 2, 1, 3, 4)  # transpose
    patch_tensor = np.reshape(a, [img_height // patch_size,
                                  img_width // patch_size,
                                  patch_size * patch_size * num_channels])
    return patch_tensor.reshape(-1, patch_size * patch_size * num_channels) @ W_e + b_e
