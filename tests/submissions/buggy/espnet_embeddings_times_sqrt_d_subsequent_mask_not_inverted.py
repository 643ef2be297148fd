"""Blind round 58 (b58_02, issue 38): embed_image and self_attention ported from espnet/espnet
`espnet/nets/pytorch_backend/transformer/embedding.py` (PositionalEncoding's `x * self.xscale`,
`xscale = math.sqrt(d_model)`), `.../transformer/attention.py` (MultiHeadedAttention.forward_qkv /
forward_attention) and `.../transformer/mask.py` (subsequent_mask). The student's
`subsequent_mask`, `forward_qkv` and `forward_attention` (top-level in the file) are nested in
self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
3. embed_image (lines 70-71 of the file as delivered) multiplies the tokens by `xscale =
   sqrt(d)` before the positions are added (espnet's PositionalEncoding.forward). Wrong on every
   input, and so in vit_forward.
4. self_attention (forward_attention, lines 107-108, with `subsequent_mask`): subsequent_mask is
   a tril keep-mask (True = may attend), but espnet's forward_attention expects True = hidden (it
   does `mask.eq(0)` first); the port passes the tril mask straight to `np.where(mask,
   min_value, scores)`, so the past and the diagonal are hidden and the future is kept (the last
   row is all hidden: a zero row). Wrong only with causal=True.

Grader: at blind time (ba46f523) and now, 95/110, both named. Mistake 3 on cls-and-positions'
three checks ("In `embed_image`, `x` is multiplied by the square root of its width d before
`params['pos']` is added, `x * math.sqrt(d) + params['pos']` (as the Transformer scales its
embeddings before adding the positional encoding): the lecture scales nothing there."). Mistake 4
on no-causal-mask's two causal checks ("... `np.where(mask, scores, -np.inf)` is written with its
condition inverted, `np.where(~mask, scores, -np.inf)` ... Fixing this is enough: your code's one
other difference shows only in ..." the all-hidden row set to zero, a quiet second part); the
judge checked "fixing this is enough" by running the file with `~tril`. vit-checkpoint observes
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:scaled_by_width:embed_image:x-times-sqrt-d-before-params['pos']",
          'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted'
                            '+~op:empty_rows_zeroed:self_attention/attention:hidden-rows-zero-weights'}


def embed_image(image, params):
    """The token sequence (N + 1, d)."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([params["cls"][np.newaxis, :], x], axis=0)
    xscale = math.sqrt(x.shape[-1])
    return x * xscale + params["pos"][: x.shape[0]]


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def subsequent_mask(size):
        return np.tril(np.ones((size, size), dtype=bool))

    def forward_qkv(query, key, value, p, h):
        n_feat = query.shape[-1]
        d_k = n_feat // h
        q = (query @ p["Wq"] + p["bq"]).reshape(-1, h, d_k)
        k = (key @ p["Wk"] + p["bk"]).reshape(-1, h, d_k)
        v = (value @ p["Wv"] + p["bv"]).reshape(-1, h, d_k)
        q = q.transpose(1, 0, 2)  # (head, time1, d_k)
        k = k.transpose(1, 0, 2)  # (head, time2, d_k)
        v = v.transpose(1, 0, 2)  # (head, time2, d_k)
        return q, k, v

    def forward_attention(value, scores, mask, p):
        h, t1, d_k = value.shape
        if mask is not None:
            mask = mask[np.newaxis]  # (1, time1, time2)
            min_value = np.finfo(scores.dtype).min
            scores = np.where(mask, min_value, scores)
            attn = np.where(mask, 0.0, softmax(scores, axis=-1))
        else:
            attn = softmax(scores, axis=-1)
        x = attn @ value  # (head, time1, d_k)
        x = x.transpose(1, 0, 2).reshape(t1, h * d_k)
        return x @ p["Wo"] + p["bo"]

    if x.shape[-1] % heads != 0:
        raise ValueError("n_feat must be divisible by n_head")
    q, k, v = forward_qkv(x, x, x, p, heads)
    d_k = q.shape[-1]
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)
    mask = subsequent_mask(x.shape[0]) if causal else None
    return forward_attention(v, scores, mask, p)
