"""Blind round 38 (b38_05, issue 38): iZcy/transformer-numpy, transformer.py (TokenEmbedding's
"scale embedding", PositionalEncoding, ScaledDotProductAttention with its mask, nested in
self_attention).

Mistakes:
1. embed_image: the patch tokens are multiplied by sqrt(d_model) (TokenEmbedding.forward) before
   [CLS] and the positions: row 0 right, the patch rows scaled.
2. self_attention: the causal mask is built as `np.triu(ones, k=1)` (the subsequent positions)
   but applied with the source's `np.where(mask == 0, -1e9, scores)` convention (mask 1 = keep):
   causal=True hides the past and the token itself and keeps the future. causal=False is right.

Grader: at blind time (60400f1) and now, both named: 1 "the output of `linear_patch_embed(...)`
is multiplied by the square root of its width d" on cls-and-positions; 2 at blind time as the
condition inverted with a quiet softmax clip ("`np.where(mask, scores, -np.inf)` is written with
its condition inverted ... your code's one other difference shows only in what this slip leads
to"), now (round 45, masks.py) as what it is: "the mask hides the scores it should keep and keeps
the ones it should hide, `np.where(mask, -1e9, scores)` in effect ... a mask that marks the
hidden keys (`np.triu(np.ones((T, T)), 1)` ...) meets a rule that reads 1 as \"keep\"" on
no-causal-mask. vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d',
          'no-causal-mask': 'op:mask_swapped:self_attention/attention:'
                            'kept-and-hidden-swapped-finite-fill'}


def embed_image(image, params):
    """TokenEmbedding.forward then PositionalEncoding.forward, with [CLS] in front."""
    d_model = params["W_e"].shape[1]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) * np.sqrt(d_model)  # scale embedding
    x = np.concatenate([params["cls"][None, :], x], axis=0)
    seq_len = x.shape[0]
    return x + params["pos"][:seq_len]


def self_attention(x, p, heads, causal=False):
    """Multi-head attention around ScaledDotProductAttention.forward(Q, K, V, mask)."""

    def scaled_dot_product_attention(Q, K, V, mask=None):
        # Q, K, V: (batch, seq_len, d_k) or (batch, num_heads, seq_len, d_k)
        d_k = Q.shape[-1]
        if len(Q.shape) == 4:
            scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(d_k)
        else:
            scores = np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        attn_weights = softmax(scores, axis=-1)
        output = np.matmul(attn_weights, V)
        return output, attn_weights

    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"d_model {d} is not divisible by {heads} heads")
    d_k = d // heads
    Q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_k).transpose(1, 0, 2)
    K = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_k).transpose(1, 0, 2)
    V = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_k).transpose(1, 0, 2)
    mask = None
    if causal:
        mask = np.triu(np.ones((T, T)), k=1)   # subsequent positions
    out, _ = scaled_dot_product_attention(Q, K, V, mask)
    out = out.transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
