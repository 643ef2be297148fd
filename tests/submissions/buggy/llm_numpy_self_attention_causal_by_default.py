"""Blind round 73 (b73_02, issue 38): self_attention ported from golba98/LLM-NumPy-CuPy-
`src/llm_numpy/nn/attention.py` (scaled_dot_product_attention and get_causal_mask).

Mistakes:
1. self_attention (line 106 of the file as delivered): `causal: bool = True`, the source's GPT
   default kept. A call that leaves `causal` out is masked; explicit causal=False and causal=True
   are right. Breaks encoder_block and vit_forward (they call it without the flag).
The delivered file's top-level helpers get_causal_mask and scaled_dot_product_attention are nested
in self_attention here (the `Optional[...]` annotation quoted: the solution imports no typing).

Grader: at blind time (6245b55a) and now, 95/110. Mistake 1 named on multi-head-attention ("`causal`
defaults to True (`causal=True` in the signature) ... the student API's default is False"), and on
no-causal-mask and why-positions ("Your `self_attention` masks the later tokens when `causal` is
left out"); vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}


def self_attention(x, p, heads, causal: bool = True):
    def get_causal_mask(seq_len: int) -> np.ndarray:
        """
        Generates a sequence-length causal mask matrix M where M[i, j] = 0 for j <= i and -1e9 for j > i.
        """
        mask_data = np.full((seq_len, seq_len), -1e9, dtype=np.float64)
        mask_data = np.triu(mask_data, k=1)
        return mask_data

    def scaled_dot_product_attention(q, k, v, causal: bool = True, causal_mask: "Optional[np.ndarray]" = None):
        """
        Computes Scaled Dot-Product Attention:
        Attention(Q, K, V) = softmax((QK^T / sqrt(d_k)) + M) V
        """
        d_k = q.shape[-1]
        scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(d_k)
        if causal:
            seq_len = q.shape[-2]
            mask = causal_mask if causal_mask is not None else get_causal_mask(seq_len)
            scores = scores + mask
        attn_weights = softmax(scores, axis=-1)
        return attn_weights @ v

    T, C = x.shape
    if C % heads != 0:
        raise ValueError(f"MultiHeadSelfAttention expected dim {C} to be divisible by num_heads {heads}.")
    head_dim = C // heads

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    Q = Q.reshape(T, heads, head_dim).transpose(1, 0, 2)
    K = K.reshape(T, heads, head_dim).transpose(1, 0, 2)
    V = V.reshape(T, heads, head_dim).transpose(1, 0, 2)

    attn_out = scaled_dot_product_attention(Q, K, V, causal=causal)

    # Merge heads back to (T, C)
    attn_merged = attn_out.transpose(1, 0, 2).reshape(T, C)
    return attn_merged @ p["Wo"] + p["bo"]
