"""Blind round 23 (b23_07, issue 38): conv_patch_embed, layer_norm and self_attention ported from
JAX (`jax.nn.dot_product_attention`'s XLA path, jax/_src/nn/functions.py: einsum('BTNH,BSNH->BNTS'),
`logits *= scale`, jnp.where(mask, logits, large_negative_number); `lax.conv_general_dilated`
with padding='VALID', NHWC / HWIO; a one-pass variance `mean(x**2) - mean**2`). The student's
top-level helper `_nhwc` is nested in conv_patch_embed here: the builder replaces only the
solution's own definitions (patchify, correct, used it too).

Mistakes:
1. self_attention reshapes the projections as (T, d_h, heads) and swaps the last two axes, so
   head h takes columns h, h + heads, ... instead of the block h*d_h:(h+1)*d_h (several heads
   only).
2. conv_patch_embed computes the VALID output width from H, `out_w = (H - kw) // stride + 1` (a
   stale `out_h`): wrong on non-square images.
3. layer_norm takes the variance in one pass, `mean(x**2) - mean(x)**2` floored at 0 (not
   intended by the port): wrong on float32 input far from zero (near 100: max diff 3.8e-3).

Grader: at blind time and now, all three named: the head split the other way round (`x.reshape(
*lead, T, heads, d // heads)` split as (d // heads, heads)) on no-causal-mask and
multi-head-attention, the columns of the output counted from H on kernel-stride (its Practice 7
property cannot judge, an observation), and the one-pass variance on layer-norm (its
shift-invariance checklist, with no name, too); vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'layer-norm': 'layer_norm_one_pass_variance'}


def conv_patch_embed(image, K, b, stride):
    def _nhwc(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("expected rank 2 or 3")
        return image

    lhs = _nhwc(image)
    H, W, C = lhs.shape
    kh, kw = K.shape[0], K.shape[1]
    if kh > H or kw > W:
        raise ValueError("VALID conv needs kernel <= input")
    out_h = (H - kh) // stride + 1
    out_w = (H - kw) // stride + 1
    out = np.zeros((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            patch = lhs[i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[i, j] = np.tensordot(patch, K, axes=([0, 1, 2], [0, 1, 2]))
    return out + b


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x), axis=-1, keepdims=True) - np.square(mean)
    variance = np.maximum(variance, 0.0)
    return (x - mean) * (1.0 / np.sqrt(variance + eps)) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, D = x.shape
    if D % heads:
        raise ValueError("heads must divide the width")
    H = D // heads
    def to_tnh(y):
        return y.reshape(T, H, heads).swapaxes(1, 2)    # (T, N, H)
    query, key, value = (to_tnh(x @ p["W" + n] + p["b" + n]) for n in "qkv")
    scale = 1.0 / math.sqrt(H)
    logits = np.einsum("TNH,SNH->NTS", query, key)
    logits *= scale
    if causal:
        mask = np.tril(np.ones((T, T), dtype=bool))
        large_negative_number = np.asarray(-0.7 * np.finfo(logits.dtype).max, dtype=logits.dtype)
        logits = np.where(mask[None], logits, large_negative_number)
    probs = softmax(logits, axis=-1)
    encoded = np.einsum("NTS,SNH->TNH", probs, value)
    return encoded.reshape(T, D) @ p["Wo"] + p["bo"]
