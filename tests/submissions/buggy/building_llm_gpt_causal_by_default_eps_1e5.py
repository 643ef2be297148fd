"""Blind round 75 (b75_02, issue 38): layer_norm and self_attention ported from
juannpmari/Building-an-LLM-from-scratch `gpt/gelu.py` and the GPT code beside it (LayerNorm with
eps 1e-5, MultiHeadAttention with its mask buffer), classes turned into functions.

Mistakes:
1. self_attention (line 110 of the file as delivered): `causal=True` is the default (the GPT
   attention always masks): every call without `causal=` hides the later tokens, so the
   solution's encoder_block and vit_forward are causal too.
2. layer_norm (line 93): default `eps=1e-5` instead of 1e-6. Right with an explicit eps.

Grader: at blind time (db1f63a6) and now, 92/110. Mistake 1 named on
multi-head-attention ("In `self_attention`, `causal` defaults to True (`causal=True` in the
signature) ..."), on no-causal-mask and why-positions ("Your `self_attention` masks the later
tokens when `causal` is left out ..."); mistake 2 on layer-norm ("In `layer_norm`, eps is 1e-05;
the student API's is 1e-06."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)  # unbiased=False
    norm_x = (x - mean) / np.sqrt(var + eps)
    return gamma * norm_x + beta


def self_attention(x, p, heads, causal=True):
    num_tokens, d_in = x.shape
    d_out = p["Wq"].shape[1]
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    keys = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]

    # We implicitly split the matrix by adding a `num_heads` dimension
    # Unroll last dim: (num_tokens, d_out) -> (num_tokens, num_heads, head_dim)
    keys = keys.reshape(num_tokens, heads, head_dim)
    values = values.reshape(num_tokens, heads, head_dim)
    queries = queries.reshape(num_tokens, heads, head_dim)

    # Transpose: (num_tokens, num_heads, head_dim) -> (num_heads, num_tokens, head_dim)
    keys = keys.transpose(1, 0, 2)
    queries = queries.transpose(1, 0, 2)
    values = values.transpose(1, 0, 2)

    # Compute scaled dot-product attention (aka self-attention) with a causal mask
    attn_scores = queries @ keys.transpose(0, 2, 1)  # Dot product for each head

    if causal:
        # Original mask truncated to the number of tokens and converted to boolean
        mask_bool = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        # Use the mask to fill attention scores
        attn_scores = np.where(mask_bool, -np.inf, attn_scores)

    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)

    # Shape: (num_tokens, num_heads, head_dim)
    context_vec = (attn_weights @ values).transpose(1, 0, 2)

    # Combine heads, where self.d_out = self.num_heads * self.head_dim
    context_vec = context_vec.reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]  # optional projection
