"""Blind round 44 (b44_08, issue 38): self_attention ported from microsoft/DirectML,
TensorFlow/VisionTransformer/MHA.py (split_heads, scaled_dot_product_attention), with the
TensorFlow tutorial's look-ahead mask (`1 - band_part(ones, -1, 0)`, `logits += mask * -1e9`).

Mistakes:
1. self_attention: split_heads is one `reshape(num_heads, -1, depth)` without the transpose (the
   source's reshape (T, heads, depth) then perm [0, 2, 1, 3]); the merge does transpose: heads
   get scrambled rows. Shows only with several heads.
2. self_attention: the causal mask is `np.tril(ones)` (band_part alone, without `1 -`) then
   `* -1e9`: it hides the past and the diagonal and leaves the future visible. Only with
   causal=True.

Grader: at blind time (0fc72e8) and now, both named: at blind time "In `self_attention` (in each of
the lecture's 3 calls of `split_heads`), `x.reshape(*lead, T, heads, d // heads).swapaxes(-2, -3)`
is done with a reshape alone ..." (now: "In `self_attention` (in each of the model solution's 3
calls of `split_heads`), the model solution's `x.reshape(*lead, T, heads, d // heads).swapaxes(-2,
-3)` is done with a reshape alone ...") on multi-head-attention, and the pair with "... the mask is
added as if it marked the hidden keys, `scores + mask * -1e9` ..." on no-causal-mask. why-positions
runs the file's self_attention: its verdict (attention_not_equivariant, a property's, told with its
checklist) is true of it, not in EXPECT but in ALIASES; vit-checkpoint observes self_attention.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden+op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
    'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    seq_len, embed_dim = x.shape
    num_heads = heads
    if embed_dim % num_heads != 0:
        raise ValueError(f"embedding dimension = {embed_dim} should be divisible by number of heads = {num_heads}")
    depth = embed_dim // num_heads

    def split_heads(y):
        """Split the last dimension into (num_heads, depth): (num_heads, seq_len, depth)."""
        return np.reshape(y, (num_heads, -1, depth))

    def scaled_dot_product_attention(q, k, v, mask=None):
        matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))
        dk = float(k.shape[-1])
        scaled_attention_logits = matmul_qk / np.sqrt(dk)
        if mask is not None:
            scaled_attention_logits += (mask * -1e9)
        attention_weights = softmax(scaled_attention_logits, axis=-1)
        return np.matmul(attention_weights, v)

    q = split_heads(x @ p["Wq"] + p["bq"])
    k = split_heads(x @ p["Wk"] + p["bk"])
    v = split_heads(x @ p["Wv"] + p["bv"])

    mask = None
    if causal:
        mask = np.tril(np.ones((seq_len, seq_len)))   # band_part(ones, -1, 0)

    scaled_attention = scaled_dot_product_attention(q, k, v, mask)
    scaled_attention = np.transpose(scaled_attention, (1, 0, 2))
    concat_attention = np.reshape(scaled_attention, (-1, embed_dim))
    return concat_attention @ p["Wo"] + p["bo"]
