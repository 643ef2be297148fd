"""Blind round 15 (b15_15, issue 38): softmax from the Udacity deep-learning quiz
(`np.exp(x) / np.sum(np.exp(x), axis=0)`, made stable), conv_patch_embed after a PyTorch tutorial
that adds the channel axis with unsqueeze(0), embed_image after the Keras example "Image
classification with Vision Transformer" (PatchEncoder: projection, then add).

Mistakes:
1. softmax's default axis is 0 instead of -1: a call without `axis` on a 2-D or larger array
   normalises down the columns; explicit axes and 1-D input are right.
2. conv_patch_embed gives a 2-D (grayscale) image its channel axis in front, (1, H, W), read as
   H=1, W=H, C=W: ValueError for any k > 1 (its own message) and for k = 1 too (tensordot's
   shape mismatch, unless the image is one pixel wide) instead of (H, W, 1).
3. embed_image adds params["b_e"] again to linear_patch_embed's output, which already adds it:
   patch tokens get 2 * b_e ([CLS] is right).

Grader: at blind time and now, all three observed: softmax "returns the expected values only in
1 of 5 rows (row 0)" on its hidden case (the visible hint is the checklist "Pass `axis` and
keepdims=True to both np.max and np.sum", which this code does); the gray image "right for
(H, W, C) images, wrong for a 2-D (H, W) one"; the bias "only in 1 of 5 rows (row 0)". Nothing
named. Since the twelfth session the default axis is named on every softmax check ("`axis`
defaults to 0"); the other two are still observed.
Since session 15 the bias added twice is named (op:term_again, through `linear_patch_embed`'s
`linear(..., b_e)`); the gray image is still observed.
Since session 17 the gray image is named by what the code does with it (op:guarded, "a 2-D (H,
W) gray image is refused ..., where the lecture's reads a 2-D image as one channel, (H, W, 1)"):
the code raises on every gray image the probes try (every channel count, the case's kernel and a
1 x 1 one), and is right on every other case; the hint's fix is the file's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0', 'kernel-stride': 'op:guarded:conv_patch_embed:gray-refused', 'cls-and-positions': "op:term_again:embed_image:linear_patch_embed-plus-params['b_e']"}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation; a gray image gets its channel axis as in the torch tutorial."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[None]            # x.unsqueeze(0)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)
    return np.tensordot(windows, K, axes=([2, 3, 4], [0, 1, 2])) + b


def embed_image(image, params):
    """Keras PatchEncoder: projection(patch) + bias, [CLS] in front, position embedding added."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) + params["b_e"]
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]


def softmax(x, axis=0):
    """Stable softmax (Udacity quiz: scores are columns, so sum over axis 0)."""
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
