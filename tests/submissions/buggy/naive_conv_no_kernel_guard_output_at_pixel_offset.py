"""Blind round 11 (b11_07, issue 38): conv_patch_embed as the textbook four-loop convolution.

Sources: "convolution from scratch in numpy" tutorials (e.g. the CS231n conv_forward_naive
assignment, and blog posts that loop `for i in range(0, H - k + 1, stride)`), where the loop
variable walks over pixels.
Mistakes:
 1. no check that the kernel fits: for k > H the output size (H - k)//stride + 1 is <= 0, so
    np.zeros raises "negative dimensions" only sometimes and otherwise returns an empty array
    instead of the ValueError the API asks for (shows for kernels larger than the image).
 2. the output is written at out[i, j] with i, j the PIXEL offsets, not i // stride: right for
    stride 1, IndexError or misplaced rows for stride > 1 (so also kernel P, stride P).

Grader: the missing guard gets the checklist "A 3x3 kernel does not fit in a 2-pixel-high image:
raise ValueError." (which is this mistake); the pixel-offset index gets only its IndexError.
Since session 14 the pixel-offset index is named (windows.output_at_pixel; the missing guard is
told by its check's own hint, which is this mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride':
          'op:window_at_pixel:conv_patch_embed:windows-written-at-pixel-offset'}


def conv_patch_embed(image, K, b, stride):
    """Naive valid cross-correlation: slide the kernel over the image with the given stride."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k, _, _, d = K.shape
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.zeros((H_out, W_out, d))
    for i in range(0, H - k + 1, stride):
        for j in range(0, W - k + 1, stride):
            window = image[i:i + k, j:j + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out
