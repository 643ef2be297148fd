"""Blind round 53 (b53_13, issue 38): conv_patch_embed ported from a numpy `conv2d(x, w, stride,
padding)` (find_string id 28344668920: x (B, H, W, Di), w (Kh, Kw, Di, Do), `y[:, i, j] +=
np.matmul(x[:, ...], w[ki, kj])` loops); vit_forward from a numpy ViT `classification_head`
(find_string id 26280827173: `cls_norm = layer_norm(cls_token)` without gamma/beta, then `@ W + b`),
its helper nested.

Mistakes:
1. conv_patch_embed has no `k > H or k > W` guard: a kernel larger than the image by at most the
   stride gives an empty array ((4, 4) with k=5, stride=2: shape (0, 0, 5)) where the API raises
   ValueError; larger by more, np.zeros happens to raise ValueError. Valid calls are right.
2. vit_forward applies the source's parameter-free layer norm to the [CLS] row, ignoring ln_g
   and ln_b: wrong whenever they are not ones and zeros.

Grader: at blind time (0ec6739e) and now, both named: M1 on kernel-stride ("In `conv_patch_embed`,
nothing tests that the kernel fits the image: a kernel taller or wider than the image has no window
that fits, yet an array comes back (an empty one, or the output buffer with no window written into
it), or numpy's error for a negative size, where the lecture raises ValueError: refuse `k > H or k >
W` first."), M2 on vit-forward ("In `vit_forward` (at the lecture's step `layer_norm(x,
params['ln_g'], params['ln_b'])`), the normalisation is used without its learned scale and shift:
the normalised values go on as they are, where the lecture's multiplies them by `params['ln_g']` and
adds `params['ln_b']` (a LayerNorm with no parameters, as torch's `elementwise_affine=False` makes
it). ..."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested',
          'vit-forward': 'op:affine_not_passed:vit_forward/layer_norm:affine-not-passed'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    x = _as_hwc(image)[None].astype(float)     # Input (B, H, W, Di)
    w = K
    stride_h, stride_w = stride, stride

    B, H, W, _ = x.shape
    # Weight (Kh, Kw, Di, Do)
    Kh, Kw, _, Do = w.shape

    # Output (B, Ho, Wo, Do)
    y = np.zeros((B, (H - Kh) // stride_h + 1, (W - Kw) // stride_w + 1, Do))

    # Output Loop
    for i in range(y.shape[1]):
        for j in range(y.shape[2]):
            # Kernel loop
            for ki in range(Kh):
                for kj in range(Kw):
                    y[:, i, j] += np.matmul(x[:, i * stride_h + ki, j * stride_w + kj], w[ki, kj])
    return y[0] + b


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    def _layer_norm(x, eps=1e-6):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps)

    encoder_output = embed_image(image, params)
    for block in params["blocks"]:
        encoder_output = encoder_block(encoder_output, block, params["heads"])

    # Step 1: Extract [CLS] token at position 0
    cls_token = encoder_output[0, :]
    # Step 2: Apply layer normalization to [CLS] token
    cls_norm = _layer_norm(cls_token)
    # Step 3: Linear projection to class logits
    logits = np.matmul(cls_norm, params["W_head"]) + params["b_head"]
    return logits
