"""Blind round 63 (b63_03, issue 38): num_patches and self_attention ported from
jayanth-pamanji/Vision_transformers_Scratch (the ViT-from-scratch notebook: PatchEmbedding,
MultiHeadSelfAttention).

Mistakes:
5. num_patches (lines 9-10 of the file as delivered): the notebook's square count
   `(img_size // P) ** 2` with `img_size = H`. Wrong only when H != W (num_tokens inherits it).
6. self_attention (line 91): scores divided by `sqrt(embed_dim)`, the model width, instead of
   `sqrt(head_dim)`. Wrong only with heads > 1.

Grader: at blind time (edc81c9a) and now, 93/110, both named. Mistake 5 on patch-count's
non-square and random checks ("In `num_patches`, the model solution's `W // P` reads `H` where `W`
belongs ... (right only when H == W)"). Mistake 6 on multi-head-attention's head-count and random
checks ("You scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h).") and no-causal-mask's
two (the same scale in the words of the reference's code); vit-checkpoint observes self_attention.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    img_size = H
    return (img_size // P) ** 2


def self_attention(x, p, heads, causal=False):
    seq_len, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(seq_len, heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(seq_len, heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(seq_len, heads, head_dim).transpose(1, 0, 2)
    attn_scores = (q @ k.transpose(0, 2, 1)) / (embed_dim ** 0.5)
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attn_scores = np.where(mask, -np.inf, attn_scores)
    attn_probs = softmax(attn_scores, axis=-1)
    out = (attn_probs @ v).transpose(1, 0, 2).reshape(seq_len, embed_dim)
    return out @ p["Wo"] + p["bo"]

