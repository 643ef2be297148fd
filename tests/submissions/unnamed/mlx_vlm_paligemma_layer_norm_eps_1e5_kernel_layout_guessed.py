"""Blind round 71 (b71_11, issue 38): layer_norm and conv_patch_embed (with its
`check_array_shape`) ported from Blaizzy/mlx-vlm `mlx_vlm/models/paligemma/vision.py` (mlx's
`nn.LayerNorm` default, and `sanitize`'s kernel layout check).

Mistakes:
1. layer_norm (line 114 of the file as delivered): default `eps=1e-5` (mlx `nn.LayerNorm`'s).
   The delivered encoder_block passes 1e-6 and is right; its vit_forward (line 173, the source's
   `post_layernorm = nn.LayerNorm(config.hidden_size)`) uses the default, as the solution's
   does, so the final norm has 1e-5. Wrong whenever eps is left out (about 1e-5 on
   unit-variance rows, large on small-variance rows).
2. conv_patch_embed (lines 88-91): the source's `check_array_shape` guesses whether K is
   already [out, kH, KW, in]; for K of shape (k, k, C, d) it answers yes exactly when k == C,
   and K is then used untransposed: an einsum error when d != k, wrong values when d == k or
   k == C == 1. Right whenever k != C.
The delivered file's top-level helpers `check_array_shape` and `_channels_last` are nested here.

Grader: at blind time (3f040026) and now, 103/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06."). Mistake 2 not told: kernel-stride's
two failed checks give only checklists ("out[i, j] = sum(image[...] * K) + b for every window
that fits ..." and "Check both: conv_patch_embed (...) and linear_patch_embed (...)"). Since
e32a9cdb (checks/kinds/generalisations.py's only_kernel_unlike_channels) the visible check
observes, true, "Your `conv_patch_embed` is right when the kernel size k differs from the channel
count C, and raises ValueError for a 3 x 3 kernel on an image with 3 channels (k == C): K is (k,
k, C, d), and with k == C its first three axes have one length, so look at each step that depends
on K's sizes (a test of its shape, ...)"; the property check keeps its checklist (at b9994292,
103/110). An observation: the guessed layout test is not named. Not every mistake named, so in
unnamed/; EXPECT holds what must hold today: the points lost, mistake 1 named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'kernel-stride': None}


def conv_patch_embed(image, K, b, stride):
    def _channels_last(x):
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
        return x

    def check_array_shape(arr):
        shape = arr.shape

        # Check if the shape has 4 dimensions
        if len(shape) != 4:
            return False

        out_channels, kH, KW, _ = shape

        # Check if out_channels is the largest, and kH and KW are the same
        if (out_channels >= kH) and (out_channels >= KW) and (kH == KW):
            return True
        else:
            return False

    x = _channels_last(image)
    H, W, C = x.shape
    kH, KW = K.shape[0], K.shape[1]
    if kH > H or KW > W:
        raise ValueError("kernel does not fit in the image")
    # MLX conv2d expects the weight be of shape [out_channels, kH, KW, in_channels]
    if check_array_shape(K):
        weight = K
    else:
        weight = K.transpose(3, 0, 1, 2)
    windows = np.lib.stride_tricks.sliding_window_view(x, (kH, KW), axis=(0, 1))  # (H', W', C, kH, KW)
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)
    return np.einsum("ijhwc,ohwc->ijo", windows, weight) + b


def layer_norm(x, gamma, beta, eps=1e-5):
    # nn.LayerNorm(dims, eps=1e-5)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) * (1.0 / np.sqrt(var + eps)) * gamma + beta
