"""Blind round 23 (b23_08, issue 38): patchify, self_attention and encoder_block ported from the
reference implementation in PyTorch's `scaled_dot_product_attention` documentation (`attn_bias`
zeros, `temp_mask = ones(L, S, bool).tril(0)`, `attn_weight += attn_bias`, softmax(dim=-1)),
patches cut with `Tensor.unfold`, and in-place residual updates. The student's top-level helpers
`_unfold` (patchify) and `_sdpa` (self_attention) are nested in the functions that use them here:
the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention adds the boolean causal mask to the scores as if it were an additive bias
   (`attn_bias + temp_mask`: +1 where allowed, +0 where hidden) instead of filling -inf where it is
   False: causal=True hides nothing.
2. patchify flattens `x.unfold(0, P, P).unfold(1, P, P)`'s (h, w, C, P, P) directly, so each
   patch is (c, p1, p2) instead of (p1, p2, c) (several channels only).
3. encoder_block adds the residuals in place, `x += ...`, changing the caller's array (the values
   returned are right).

Grader: at blind time and now, the mask named (the 0/1 mask added to the scores, `scores + mask`,
where `np.where(mask, scores, -np.inf)` belongs) on no-causal-mask, and the channel-first flatten
(torch's Conv2d weight order) on patchify; vit-checkpoint observes the broken functions. The
in-place add was only observed at blind time ("Change no array `encoder_block` is given in place:
compute into a new one (`x = x - m`, not `x -= m`)"), the mechanism with no misconception name;
since b6240a0 it is named (changes_input_in_place: the worker sees the argument change; the same
hint, now a named mistake) on encoder-block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'no-causal-mask': 'op:mask_added:self_attention/attention:mask-added',
          'encoder-block': 'changes_input_in_place'}


def patchify(image, P):
    def _unfold(x, axis, size, step):
        # Tensor.unfold(dimension, size, step): new last axis of length `size`
        n = (x.shape[axis] - size) // step + 1
        idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
        out = np.take(x, idx, axis=axis)           # axis replaced by (n, size)
        return np.moveaxis(out, axis + 1, -1)

    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = x.shape
    n = num_patches(H, W, P)
    x = np.moveaxis(x, -1, 0)                  # (C, H, W) as torch wants it
    x = _unfold(_unfold(x, 1, P, P), 2, P, P)  # (C, h, w, P, P)
    x = np.moveaxis(x, 0, 2)                   # (h, w, C, P, P)
    return x.reshape(n, P * P * C)


def self_attention(x, p, heads, causal=False):
    def _sdpa(query, key, value, is_causal=False):
        L, S = query.shape[-2], key.shape[-2]
        scale_factor = 1 / math.sqrt(query.shape[-1])
        attn_bias = np.zeros((L, S), dtype=query.dtype)
        if is_causal:
            temp_mask = np.tril(np.ones((L, S), dtype=bool), k=0)
            attn_bias = attn_bias + temp_mask
        attn_weight = query @ np.swapaxes(key, -2, -1) * scale_factor
        attn_weight += attn_bias
        attn_weight = softmax(attn_weight, axis=-1)
        return attn_weight @ value

    T, E = x.shape
    if E % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    hd = E // heads
    q, k, v = ((x @ p[f"W{c}"] + p[f"b{c}"]).reshape(T, heads, hd).transpose(1, 0, 2) for c in "qkv")
    out = _sdpa(q, k, v, is_causal=causal)
    return out.transpose(1, 0, 2).reshape(T, E) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    x += self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x += gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x
