"""Blind round 56 (b56_10, issue 38): embed_image ported from the Flax ViT `PatchEmbeddings`
(`nn.Conv(..., kernel_size=(patch_size, patch_size), strides=..., padding="VALID")`,
`batch_size, _, _, channels = x.shape; reshape(x, (batch_size, -1, channels))`) onto the course's
`conv_patch_embed`; self_attention's causal mask from the BERT-style extended attention mask of
Humorloos/melt (`TMTransformerAttentionMaskMixin.py`: `mask = (1.0 - mask) * -10000.0`, added to
the scores).

Mistakes:
18. `embed_image` builds the kernel with `channels = image.shape[-1]`: on a gray (H, W) image that
    is W, so it raises ValueError (cannot reshape) where the API returns (N + 1, d). 3-D images are
    right. (Its flooring conv also has no tiling guard: a 6x6x3 image with P = 4 gives (2, 4)
    where the API raises ValueError; not in the key, told by a correct checklist.)
19. `self_attention(causal=True)` adds -10000 to the hidden scores instead of hiding them (the
    course accepts -1e9 or lower, and -inf). With unit-scale inputs the result equals the
    reference; with scores far from 0 (tokens x 100) later tokens leak into earlier ones.

Grader: at blind time (ba2d1546), 102/110: cls-and-positions 0 / 8, "[observation] hint: Your
`embed_image` is right for (H, W, C) images, and raises ValueError for a 2-D (H, W) one: a 2-D
image is one channel, (H, W, 1): treat it as `image[..., None]` (and read H, W from
`image.shape[:2]`)." on "RGB and gray images, random parameters", the checklist elsewhere; #19
lost no point (no-causal-mask 7 / 7, multi-head-attention 9 / 9: every causal case unit-scale).
Now #19 is caught: no-causal-mask's visible check has tokens far from zero (x 100, scores of size
~1e4), and named there (`masks.shallow_fill`): "In `self_attention` (at the model solution's step
`attention(q, k, v, mask)`), the hidden scores get -10000 added, `scores + np.where(mask, 0.0,
-10000.0)`, where `np.where(mask, scores, -np.inf)` belongs: -10000 is not low enough, scores of
size ~10000 (inputs far from zero) leak through the mask. Hide them with -np.inf, or -1e9." #18
stays observed, so the file stays in unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': None,
          'no-causal-mask': 'op:shallow_fill:self_attention/attention:minus-inf-as-added-1e4'}


def embed_image(image, params):
    """Patch embeddings through a VALID conv (kernel = stride = P), [CLS] first, positions added."""
    P = params["P"]
    channels = image.shape[-1]
    kernel = params["W_e"].reshape(P, P, channels, -1)
    x = conv_patch_embed(image, kernel, params["b_e"], P)
    h, w, c = x.shape
    x = np.reshape(x, (h * w, c))
    cls_token = params["cls"][None, :]
    x = np.concatenate([cls_token, x], axis=0)
    return x + params["pos"]


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d); causal=True adds the extended attention mask."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):                                   # (T, d) -> (heads, T, d_h)
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)  # (heads, T, T)
    if causal:
        attention_mask = np.tril(np.ones((T, T)))[None, :, :]   # 1 = attend, 0 = ignore
        extended_attention_mask = (1.0 - attention_mask) * -10000.0
        scores = scores + extended_attention_mask
    out = softmax(scores, axis=-1) @ v                  # (heads, T, d_h)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
