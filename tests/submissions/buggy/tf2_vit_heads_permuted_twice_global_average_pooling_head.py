"""Blind round 43 (b43_09, issue 38): self_attention and vit_forward ported from a TF2/Keras
ViT (code-search file id 2147799871: multiHeadAttentionLayer with `Reshape((-1, head,
d_model//head))`, `Permute((2, 1, 3))`, `concat_attention =
self.re2(self.permute(scaled_attention))`; visionTransformer() ending in
`GlobalAveragePooling1D()(y)` then a Dense head).

Mistakes:
1. self_attention: the heads are combined as `re2(permute(permute(head)))` (the source
   permutes twice), so (heads, T, d_h) is reshaped straight to (T, d): rows mix tokens and
   heads; right with one head only.
2. vit_forward: the head reads the mean over all tokens (GlobalAveragePooling1D) instead of
   the [CLS] row.

Grader: at blind time (b20830f) and now, both named: at blind time "In `self_attention` (at the
lecture's step `merge_heads(attention(q, k, v, mask))`), `x.swapaxes(-2, -3)` is used without its
transpose ..." (now: "In `self_attention`, the heads' outputs are merged by a reshape without
moving the head axis back first ...") on no-causal-mask and multi-head-attention, "You averaged
every token ..." on vit-forward (graded with the grader's self_attention). why-positions runs the
file's self_attention: its verdict (attention_not_equivariant, a property's, told with its
checklist) is true of it, not in EXPECT but in ALIASES; vit-checkpoint observes both. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
    'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
    'vit-forward': 'vit_mean_pool_all_tokens',
}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def self_attention(x, p, heads, causal=False):
    """multiHeadAttentionLayer.call on q_d(y), k_d(y), v_d(y) for one sequence."""
    T, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")

    def re1(t):                         # Reshape((-1, head, d_model // head))
        return t.reshape(-1, heads, d_model // heads)

    def permute(t):                     # Permute((2, 1, 3))
        return t.transpose(1, 0, 2)

    def re2(t):                         # Reshape((-1, d_model))
        return t.reshape(-1, d_model)

    def scaled_dot_product(q, k, v):
        qk = q @ k.transpose(0, 2, 1) / math.sqrt(k.shape[-1])
        if causal:
            qk = np.where(np.tril(np.ones((T, T), dtype=bool)), qk, -np.inf)
        return softmax(qk, axis=-1) @ v

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    q_s, k_s, v_s = permute(re1(q)), permute(re1(k)), permute(re1(v))
    head = scaled_dot_product(q_s, k_s, v_s)
    scaled_attention = permute(head)
    concat_attention = re2(permute(scaled_attention))
    return concat_attention @ p["Wo"] + p["bo"]

def vit_forward(image, params):
    """visionTransformerLayer, then GlobalAveragePooling1D and the Dense head (logits, no softmax)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    y = x.mean(axis=0)                  # GlobalAveragePooling1D
    return y @ params["W_head"] + params["b_head"]
