"""Blind round 8 (b8_09, issue 38): embed_image and self_attention after the Annotated
Transformer (Embeddings, attention()).

Mistakes:
1. embed_image: the patch tokens are multiplied by sqrt(d) before [CLS] and the positions, as
   `Embeddings.forward` does (`self.lut(x) * math.sqrt(self.d_model)`; pytorch/tutorials#2849,
   Kyubyong/transformer#132). Shows always.
2. self_attention: the scores divided by d_k, not sqrt(d_k) (delzac/cntkx#10). Shows whenever
   d_h > 1 and T > 1.

Grader: both named (the sqrt(d) by terms.scaled_by_width since; in blind round 8 it was only
observed: "only in 1 of 5 rows (row 0)", the [CLS] row).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=d_h'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    d_model = x.shape[-1]
    x = x * math.sqrt(d_model)
    x = np.concatenate([params["cls"].reshape(1, -1), x], axis=0)
    return x + params["pos"]


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    def attention(query, key, value, mask=None):
        "Compute 'Scaled Dot Product Attention'"
        d_k = query.shape[-1]
        scores = query @ key.swapaxes(-2, -1) / d_k
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        p_attn = softmax(scores, axis=-1)
        return p_attn @ value
    nbatches_T, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by h")
    d_k = d_model // heads
    query, key, value = [
        (x @ p[W] + p[b]).reshape(nbatches_T, heads, d_k).transpose(1, 0, 2)
        for W, b in (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv"))
    ]
    mask = np.tril(np.ones((nbatches_T, nbatches_T))) if causal else None
    x = attention(query, key, value, mask=mask)
    x = x.transpose(1, 0, 2).reshape(nbatches_T, d_model)
    return x @ p["Wo"] + p["bo"]
