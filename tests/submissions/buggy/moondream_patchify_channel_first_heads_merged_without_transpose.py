"""Blind round 57 (b57_01, issue 38): patchify and self_attention ported from vikhyat/moondream
`clients/python/moondream/torch/vision.py` (vision_encoder's `rearrange(x, "b c (h p1) (w p2) ->
b (h w) (c p1 p2)")`) and `clients/python/moondream/torch/layers.py` (linear, attn). The
student's `linear` and `scaled_dot_product_attention` (top-level in the file) are nested in
self_attention here: the builder replaces only the solution's own definitions. (The file's mlp
uses GELU's tanh approximation: accepted, not a mistake.)

Mistakes:
1. patchify (lines 45-50 of the file as delivered) turns the image CHW and reshapes it to
   `(C, h, P, w, P).transpose(1, 3, 0, 2, 4)`: each patch is flattened channel first,
   (c, p1, p2), instead of the API's (p1, p2, c). Wrong only for C > 1; 2-D and one-channel
   images are right.
2. self_attention (line 144) merges the heads with `out.reshape(q_len, d_model)` on the
   (heads, T, d_h) array, dropping moondream's `transpose(1, 2)` before it: rows of different
   heads and tokens get mixed. Wrong only with heads > 1 (causal or not).

Grader: at blind time (84f876fc) and now, both named. Mistake 1 on patchify's RGB and hidden
checks ("You flattened each patch channel first, (c, p1, p2). That is the order of torch's
Conv2d weights (d, C, P, P), not the course's: ..."). Mistake 2 on multi-head-attention's
several-heads and hidden checks and on no-causal-mask's causal checks ("In `self_attention`, the
heads' outputs are merged by a reshape without moving the head axis back first: the (heads, T,
d_h) array must become (T, heads, d_h) before it is reshaped to (T, d), ..."); why-positions'
equivariance property tells its checklist (self_attention depends on the order of its rows);
vit-checkpoint observes patchify and self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)  # HWC -> CHW, the layout vision_encoder takes
    # einops.rearrange step of vision_encoder
    h, w = H // P, W // P
    x = x.reshape(C, h, P, w, P).transpose(1, 3, 0, 2, 4)
    return x.reshape(h * w, C * P * P)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def linear(x, w):
        # F.linear(x, w.weight, w.bias), with the weight stored (in, out)
        return x @ w["weight"] + w["bias"]

    def scaled_dot_product_attention(q, k, v, is_causal=False):
        L, S = q.shape[-2], k.shape[-2]
        scale = 1.0 / math.sqrt(q.shape[-1])
        attn_bias = np.zeros((L, S))
        if is_causal:
            keep = np.tril(np.ones((L, S), dtype=bool))
            attn_bias = np.where(keep, 0.0, -np.inf)
        attn_weight = q @ k.swapaxes(-2, -1) * scale + attn_bias
        attn_weight = softmax(attn_weight, axis=-1)
        return attn_weight @ v

    q_len, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by n_heads")
    head_dim = d_model // heads

    q, k, v = [
        linear(x, {"weight": p["W" + n], "bias": p["b" + n]}).reshape(q_len, heads, head_dim).transpose(1, 0, 2)
        for n in "qkv"
    ]
    out = scaled_dot_product_attention(q, k, v, is_causal=causal)
    out = out.reshape(q_len, d_model)
    out = linear(out, {"weight": p["Wo"], "bias": p["bo"]})
    return out
