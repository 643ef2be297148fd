"""Blind round 27 (b27_05, issue 38): self_attention and vit_forward ported from Sebastian Raschka's
"Build a Large Language Model (From Scratch)" (rasbt/LLMs-from-scratch: ch03 MultiHeadAttention,
`context_vec = (attn_weights @ values).transpose(1, 2)` then `.contiguous().view(b, num_tokens,
d_out)`; ch04 GPTModel's out_head on every token and generate_text_simple's `logits[:, -1, :]`).
The student's correct layer_norm (the book's LayerNorm) is left out: it grades as the solution's.

Mistakes:
1. self_attention reshapes the (heads, T, d_h) context straight to (T, d), dropping the transpose
   back: right with one head or one token.
2. vit_forward applies the head to every token and returns the last token's logits, not the [CLS]
   row's.

Grader: at blind time and now, both named: the merge's transpose left out on no-causal-mask and
multi-head-attention (why-positions gives its equivariance checklist); the head reading the last
token on vit-forward (and `x[0]` reading index -1 on its random check); vit-checkpoint observes
the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant',
          'vit-forward': 'vit_last_row'}


def self_attention(x, p, heads, causal=False):
    num_tokens, d_out = x.shape
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads
    keys = x @ p["Wk"] + p["bk"]          # Shape: (num_tokens, d_out)
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]
    # We implicitly split the matrix by adding a `num_heads` dimension
    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    queries = queries.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    attn_scores = queries @ keys.transpose(0, 2, 1)  # Dot product for each head
    if causal:
        mask_bool = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attn_scores = np.where(mask_bool, -np.inf, attn_scores)
    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)
    context_vec = attn_weights @ values
    # Combine heads, where self.d_out = self.num_heads * self.head_dim
    context_vec = context_vec.reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]  # optional projection


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:              # trf_blocks
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])   # final_norm
    logits = x @ params["W_head"] + params["b_head"]    # out_head
    # Focus only on the last time step
    return logits[-1]
