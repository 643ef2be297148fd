"""Blind round 55 (b55_08, issue 38): self_attention ported from a PyTorch `MultiHeadAttention`
(find_string id 36837724316: `self.scale = embed_dim ** -0.5`, `q = q * self.scale`), the
einops `"n (h d) -> h n d"` head split written as a reshape and transpose; an additive
`np.where(tril == 0, -inf, 0)` mask when causal.

Mistakes:
1. The scores are scaled by `d ** -0.5` (the full width) instead of 1/sqrt(d_h). Wrong only with
   heads > 1 (heads 2, 4, 8, causal or not, and encoder_block with several heads); heads=1 is
   right, causal included.

Grader: at blind time (cdc1de9a) and now, named on multi-head-attention ("You scaled by 1/sqrt(d),
the model width. Each head's dot products are over d_h = d // heads numbers: scale by 1/sqrt(d_h).")
and on no-causal-mask ("In `self_attention` (where each head's attention weights are computed and
applied to its values), the scores are divided by sqrt(d) (at your line `scale = embed_dim **
-0.5`), the model width, instead of sqrt(d_h) = `math.sqrt(q.shape[-1])` (d_h = d // heads).");
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    T, embed_dim = x.shape
    num_heads = heads
    if embed_dim % num_heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    scale = embed_dim ** -0.5

    def rearrange_axes(t):  # "n (h d) -> h n d"
        return t.reshape(T, num_heads, embed_dim // num_heads).transpose(1, 0, 2)

    q = rearrange_axes(x @ p["Wq"] + p["bq"])
    k = rearrange_axes(x @ p["Wk"] + p["bk"])
    v = rearrange_axes(x @ p["Wv"] + p["bv"])

    q = q * scale
    attn_logits = np.matmul(q, k.transpose(0, 2, 1))

    if causal:
        mask = np.tril(np.ones((T, T)))
        mask = np.where(mask == 0, -np.inf, 0.0)
        attn_logits = attn_logits + mask

    attn = softmax(attn_logits, axis=-1)
    out = np.matmul(attn, v)
    out = out.transpose(1, 0, 2).reshape(T, embed_dim)  # "h n d -> n (h d)"
    return out @ p["Wo"] + p["bo"]
