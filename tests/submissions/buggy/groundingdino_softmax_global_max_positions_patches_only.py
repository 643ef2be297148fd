"""Blind round 23 (b23_12, issue 38): embed_image and softmax ported from IDEA-Research's
GroundingDINO (groundingdino/models/GroundingDINO/fuse_modules.py, BiMultiHeadAttention's
stabilisation `attn_weights - attn_weights.max()` and clamp(min=-50000, max=50000);
transformer.py adding the positional embeddings to the image features only).

Mistakes:
1. softmax subtracts the global max of the whole array, `x - x.max()`, instead of the max along
   `axis`: a slice whose values all lie far (more than ~745) below the global max underflows to
   0 / 0 = NaN.
2. embed_image adds pos[1:] to the patch features only, DETR / DINO style, and prepends [CLS]
   without its position row pos[0].

Grader: at blind time and now, both named: `np.max(x, keepdims=True)` in place of `np.max(x,
axis=axis, keepdims=True)`, over the whole array, on stable-softmax, and "You added the positions
before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at all" on
cls-and-positions; vit-checkpoint observes the broken functions. The student's self_attention,
correct, takes its own per-row softmax (`attn_weights - attn_weights.max(-1, keepdims=True)`) and
never calls the broken one: it is kept here (CORRECT), so that vit-forward is graded around
embed_image alone, as on the whole file. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'cls-and-positions': 'embed_positions_before_cls'}
CORRECT = ('self_attention',)  # its own softmax, not the broken one: keeps every point


def embed_image(image, params):
    src = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos = params["pos"]
    src = src + pos[1:]
    return np.concatenate([params["cls"][None, :], src], axis=0)


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - x.max()
    x = np.clip(x, -50000, 50000)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    tgt_len, embed_dim = x.shape
    if embed_dim % heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    scale = head_dim ** (-0.5)

    def _shape(t):
        return t.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)

    query_states = _shape(x @ p["Wq"] + p["bq"]) * scale
    key_states = _shape(x @ p["Wk"] + p["bk"])
    value_states = _shape(x @ p["Wv"] + p["bv"])
    attn_weights = query_states @ key_states.transpose(0, 2, 1)
    if causal:
        attn_weights = np.where(np.tril(np.ones((tgt_len, tgt_len), bool))[None], attn_weights, -np.inf)
    # per-row max here (the scores of one head can span a wide range)
    attn_weights = attn_weights - attn_weights.max(-1, keepdims=True)
    attn_probs = np.exp(attn_weights)
    attn_probs = attn_probs / attn_probs.sum(-1, keepdims=True)
    attn_output = attn_probs @ value_states
    attn_output = attn_output.transpose(1, 0, 2).reshape(tgt_len, embed_dim)
    return attn_output @ p["Wo"] + p["bo"]
