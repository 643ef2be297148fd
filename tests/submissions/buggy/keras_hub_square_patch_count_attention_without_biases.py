"""Blind round 62 (b62_01, issue 38): num_patches and self_attention ported from keras-team/keras-hub
`keras_hub/src/models/vit/vit_layers.py` (ViTPatchingAndEmbedding's square
`(image_size // patch_size) ** 2`; ViTEncoderBlock's `MultiHeadAttention(use_bias=False)` as
einsums over (hidden_dim, heads, key_dim) kernels).

Mistakes:
1. num_patches (lines 13-15 of the file as delivered): `(image_size // patch_size) ** 2` with
   `image_size = H`, the source's square count. Wrong only when H != W ((8, 12, 4) gives 4, not
   6); num_tokens inherits it.
2. self_attention (lines 110-112 and 121): the source's `use_bias=False` kept: bq, bk, bv and bo
   are never added. Wrong on any input with nonzero biases (any heads); encoder_block and
   vit_forward inherit it.

Grader: at blind time (90d6c97e) and now, 92/110, both named. Mistake 1 on patch-count's
non-square and random checks ("In `num_patches`, `W // P` reads `H` where `W` belongs: in effect
`H // P`, a copy of its sibling term (right only when H == W)"). Mistake 2 on
multi-head-attention's three checks and no-causal-mask's two ("In `self_attention` (in each of the
model solution's 4 calls of `linear`), the bias `b` is left out of `x @ W + b`"); vit-checkpoint
observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b',
          'no-causal-mask': 'op:term:self_attention/linear*:drop-b'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image size must be divisible by patch size")
    image_size = H
    patch_size = P
    num_patches = (image_size // patch_size) ** 2
    return num_patches


def self_attention(x, p, heads, causal=False):
    T, hidden_dim = x.shape
    if hidden_dim % heads:
        raise ValueError("hidden_dim must be divisible by num_heads")
    key_dim = hidden_dim // heads
    query = np.einsum("ab,bnh->anh", x, p["Wq"].reshape(hidden_dim, heads, key_dim))
    key = np.einsum("ab,bnh->anh", x, p["Wk"].reshape(hidden_dim, heads, key_dim))
    value = np.einsum("ab,bnh->anh", x, p["Wv"].reshape(hidden_dim, heads, key_dim))
    query = query * (1.0 / math.sqrt(float(key_dim)))
    attention_scores = np.einsum("anh,bnh->nab", query, key)
    if causal:
        mask = np.tril(np.ones((T, T), dtype=bool))
        attention_scores = np.where(mask, attention_scores, -np.inf)
    attention_scores = softmax(attention_scores, axis=-1)
    attention_output = np.einsum("nab,bnh->anh", attention_scores, value)
    output_kernel = p["Wo"].reshape(heads, key_dim, hidden_dim)
    return np.einsum("anh,nhd->ad", attention_output, output_kernel)
