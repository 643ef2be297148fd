"""Blind round 26 (b26_10, issue 38): num_patches and conv_patch_embed ported from the Flax NNX
ViT example (`nnx.Conv(C, d, kernel_size=(k, k), strides=(stride, stride))`, whose padding
defaults to 'SAME'; the patch grid counted as that conv's output).

Mistakes:
1. num_patches counts with SAME padding, ceil(H / P) * ceil(W / P): rounds up and never raises.
2. conv_patch_embed zero-pads as padding='SAME' does (ceil(H / stride) outputs, the padding split
   between the two sides, the extra one at the end) before the convolution.

Grader: at blind time and now, both named: rounded up, a partial patch counted at each edge, on
patch-count; the image zero-padded as TensorFlow's padding='SAME' does on kernel-stride. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'kernel-stride': 'op:padding:conv_patch_embed:pad-same'}


def num_patches(H, W, P):
    # grid of nnx.Conv(kernel_size=(P, P), strides=(P, P)) with padding='SAME'
    return math.ceil(H / P) * math.ceil(W / P)


def conv_patch_embed(image, K, b, stride):
    # nnx.Conv(C, d, kernel_size=(k, k), strides=(stride, stride))  -- padding='SAME' (default)
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    out_h, out_w = math.ceil(H / stride), math.ceil(W / stride)
    pad_h = max((out_h - 1) * stride + k - H, 0)
    pad_w = max((out_w - 1) * stride + k - W, 0)
    x = np.pad(image, ((pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    windows = windows[:out_h, :out_w]                                  # (out_h, out_w, C, k, k)
    return np.einsum("ijckl,klcd->ijd", windows, K) + b
