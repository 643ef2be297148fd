"""Blind round 38 (b38_10, issue 38): a PyTorch ViT (code-search file id 12630058938:
PatchEmbedding proj -> flatten -> norm, MultiHeadSelfAttention with one qkv Linear).

Mistakes:
1. embed_image: a LayerNorm (gamma 1, beta 0, eps 1e-5: PatchEmbedding's `self.norm =
   nn.LayerNorm(embd_dim)`) applied to the patch tokens after the projection, before [CLS] and
   the positions: row 0 right, every patch row standardised.
2. self_attention: the stacked qkv reshaped `(N, heads, 3, head_dim)` instead of the source's
   `(N, 3, heads, head_dim)`: the same for one head, q/k/v columns mixed with several.

Grader: at blind time (60400f1): 2 named ("q, k, v come from one fused product ... split per
token as (heads, 3, d_h) where its columns are (3, heads, d_h)") on no-causal-mask and
multi-head-attention; 1 only observed ("Your `embed_image` returns the expected values only in 1
of 5 rows (row 0); the others differ", some_rows_wrong) on cls-and-positions. vit-checkpoint
observes both.
Since port38b (sequence.py's standardised_bound) 1 is named too: "each row of
`linear_patch_embed(...)` is standardised, (x - mean) / sqrt(var + eps), as soon as it is
computed (... a patch embedding's norm layer ...)": the embed_image's first step, a layer given
its weights, standardised as its result is bound (torch's eps 1e-5). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:standardised_bound:embed_image:standardised-linear_patch_embed',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major'}


def embed_image(image, params):
    """PatchEmbedding.forward (proj, flatten, transpose, norm), then cls token and pos_embed."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # (N, embd_dim)
    d = x.shape[-1]
    x = layer_norm(x, np.ones(d), np.zeros(d), eps=1e-5)                       # self.norm = nn.LayerNorm(embd_dim)
    cls_tokens = params["cls"][None, :]                                        # (1, embd_dim)
    x = np.concatenate((cls_tokens, x), axis=0)                                # (N+1, embd_dim)
    x = x + params["pos"]
    return x


def self_attention(x, p, heads, causal=False):
    """MultiHeadSelfAttention.forward with the three projections stacked into one qkv."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError("Embedding dimension must be divisible by number of heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)     # self.qkv = nn.Linear(embd_dim, embd_dim * 3)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ W_qkv + b_qkv).reshape(N, num_heads, 3, head_dim).transpose(2, 1, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]                                  # each (num_heads, N, head_dim)
    attn = (q @ k.transpose(0, 2, 1)) * scale                         # (num_heads, N, N)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(N, C)                 # (N, num_heads*head_dim = C)
    return out @ p["Wo"] + p["bo"]
