"""Blind round 63 (b63_13, issue 38): self_attention and vit_forward ported from NVIDIA/apex
`apex/contrib/multihead_attn/self_multihead_attn_func.py` (SelfAttnFunc.forward) and
`self_multihead_attn.py` (SelfMultiheadAttn, time-first [seql, bsz, embed] layout).

Mistakes:
19. self_attention (line 87 of the file as delivered): the fused `[Wq | Wk | Wv]` output viewed as
    `(seql, heads, 3, head_dim)`, apex's interleaved-weight layout, although the weights here are
    concatenated q | k | v: with heads > 1 the heads mix q, k and v columns. The same at one head.
20. vit_forward (line 121): `x[:, 0]`, a batched code's leftover, takes column 0 of every token
    instead of the [CLS] row. Wrong on any input (an error when T != d).

Grader: at blind time (edc81c9a) and now, 89/110, both named. Mistake 19 on multi-head-attention's
head-count and random checks and no-causal-mask's two ("q, k, v come from one fused product ...
split per token as (heads, 3, d_h) where its columns are (3, heads, d_h) ... Reshape to (T, 3,
heads, d_h) first."). Mistake 20 on vit-forward's two ("`x[0]` reads along the second axis,
`x[:, 0]` (a column, not a row)."); vit-checkpoint observes vit_forward. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'vit-forward': 'op:index:vit_forward:x[:,0]'}


def self_attention(x, p, heads, causal=False):
    inputs = x[:, None, :]                          # [seql_q, seqs, embed_dim]
    seql, bsz, embed_dim = inputs.shape
    if embed_dim % heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    scale_t = 1.0 / math.sqrt(head_dim)

    input_weights = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    input_biases = np.concatenate([p["bq"], p["bk"], p["bv"]])
    input_lin_results = inputs @ input_weights + input_biases
    # Input Linear Results: [seql_q, seqs, embed_dim*3] -> [seql_q, seqs*heads, 3, head_dim]
    input_lin_results = input_lin_results.reshape(seql, bsz * heads, 3, head_dim)
    queries = input_lin_results[:, :, 0, :]
    keys = input_lin_results[:, :, 1, :]
    values = input_lin_results[:, :, 2, :]

    # Matmul1 Batched GEMMs: [seqs*heads, seql_q, seql_k]
    matmul1_results = np.einsum("qbd,kbd->bqk", queries, keys) * scale_t
    if causal:
        mask = np.triu(np.ones((seql, seql), dtype=bool), 1)
        matmul1_results = np.where(mask[None], -np.inf, matmul1_results)
    softmax_results = softmax(matmul1_results, axis=-1)

    # Matmul2: [seqs*heads, seql_q, head_dim] -> [seql_q, seqs*heads, head_dim]
    matmul2_results = np.einsum("bqk,kbd->qbd", softmax_results, values)
    matmul2_results = matmul2_results.reshape(seql, bsz, embed_dim)
    outputs = matmul2_results @ p["Wo"] + p["bo"]
    return outputs[:, 0, :]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[:, 0]
    return cls @ params["W_head"] + params["b_head"]

