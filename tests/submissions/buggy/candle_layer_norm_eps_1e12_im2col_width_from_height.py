"""Blind round 22 (b22_06, issue 38): layer_norm and conv_patch_embed ported from
huggingface/candle (vit.rs's config, layer_norm_eps = 1e-12; conv2d through im2col). The
student's top-level helper `_dims3` is nested in conv_patch_embed here: the builder replaces only
the solution's own definitions.

Mistakes:
1. layer_norm's default eps is 1e-12 (candle's ViT config) instead of 1e-6.
2. conv_patch_embed computes out_w from h (`(h - k_w) // stride + 1`, a stale copy of the line
   above): right for square images only.

Grader: at blind time and now (the same commit), both named: eps 1e-12, and the width's window
count read from H; the K = W_e check gives an observation. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def layer_norm(x, gamma, beta, eps=1e-12):
    mean_x = np.mean(x, axis=-1, keepdims=True)
    x = x - mean_x
    norm_x = np.mean(x * x, axis=-1, keepdims=True)
    x_normed = x / np.sqrt(norm_x + eps)
    return x_normed * gamma + beta


def conv_patch_embed(image, K, b, stride):
    def _dims3(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image.reshape(image.shape[0], image.shape[1], 1)
        if image.ndim != 3:
            raise ValueError(f"unexpected rank, expected: 3, got: {image.ndim} ({image.shape})")
        return image

    xs = _dims3(image)
    (h, w, c) = xs.shape
    (k_h, k_w, _, c_out) = K.shape
    if k_h > h or k_w > w:
        raise ValueError("kernel is larger than the input")
    out_h = (h - k_h) // stride + 1
    out_w = (h - k_w) // stride + 1
    # im2col: one row per output position, (k_h, k_w, c) per row
    cols = np.empty((out_h * out_w, k_h * k_w * c), dtype=np.result_type(xs, K))
    for oh in range(out_h):
        for ow in range(out_w):
            cols[oh * out_w + ow] = xs[oh * stride:oh * stride + k_h, ow * stride:ow * stride + k_w, :].reshape(-1)
    ys = cols @ K.reshape(k_h * k_w * c, c_out) + b
    return ys.reshape(out_h, out_w, c_out)
