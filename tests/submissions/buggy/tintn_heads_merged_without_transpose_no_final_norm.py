"""Blind round 32 (b32_03, issue 38): tintn/vision-transformer-from-scratch, vit.py
(FasterMultiHeadAttention as self_attention, ViTForClassfication.forward as vit_forward).

Mistakes:
1. self_attention: the heads are merged with a bare `attention_output.reshape(sequence_length,
   all_head_size)` from (heads, T, d_h), without the transpose back to (T, heads, d_h): token
   rows and heads get mixed. Right with one head.
2. vit_forward: no final LayerNorm (ln_g, ln_b unused); the head reads encoder_output[0]
   straight from the last block.

Grader: at blind time (a78aae9) and now, both named: at blind time "`x.swapaxes(-2, -3)` is used
without its transpose" (in the reference's step `merge_heads(...)`; now: "the heads' outputs are
merged by a reshape without moving the head axis back first ...") on no-causal-mask and
multi-head-attention; "The head reads tokens that did not go through the final LayerNorm"
(vit_final_ln_skipped) on vit-forward, the grader's self_attention standing in. why-positions runs
the student's self_attention, which is not permutation-equivariant (attention_not_equivariant, the
property's checklist); encoder-block keeps its points; vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant',
          'vit-forward': 'vit_final_ln_skipped'}


def self_attention(x, p, heads, causal=False):
    """FasterMultiHeadAttention: all heads at once with a merged qkv projection."""
    hidden_size = x.shape[-1]
    num_attention_heads = heads
    if hidden_size % num_attention_heads != 0:
        raise ValueError("hidden_size must be divisible by num_attention_heads")
    attention_head_size = hidden_size // num_attention_heads
    all_head_size = num_attention_heads * attention_head_size

    # qkv_projection: (sequence_length, hidden_size) -> (sequence_length, all_head_size * 3)
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ qkv_weight + qkv_bias
    query, key, value = np.split(qkv, 3, axis=-1)

    # Resize to (num_attention_heads, sequence_length, attention_head_size)
    sequence_length, _ = query.shape
    query = query.reshape(sequence_length, num_attention_heads, attention_head_size).transpose(1, 0, 2)
    key = key.reshape(sequence_length, num_attention_heads, attention_head_size).transpose(1, 0, 2)
    value = value.reshape(sequence_length, num_attention_heads, attention_head_size).transpose(1, 0, 2)

    # softmax(Q*K.T/sqrt(head_size))*V
    attention_scores = np.matmul(query, key.transpose(0, 2, 1))
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        future = np.triu(np.ones((sequence_length, sequence_length), dtype=bool), k=1)
        attention_scores = np.where(future, -np.inf, attention_scores)
    attention_probs = softmax(attention_scores, axis=-1)
    attention_output = np.matmul(attention_probs, value)

    # Project the attention output back to the hidden size
    attention_output = attention_output.reshape(sequence_length, all_head_size)
    attention_output = attention_output @ p["Wo"] + p["bo"]
    return attention_output


def vit_forward(image, params):
    """ViTForClassfication.forward: embedding, encoder, classifier on the [CLS] output."""
    # Calculate the embedding output
    embedding_output = embed_image(image, params)
    # Calculate the encoder's output
    encoder_output = embedding_output
    for block in params["blocks"]:
        encoder_output = encoder_block(encoder_output, block, params["heads"])
    # Calculate the logits, take the [CLS] token's output as features for classification
    logits = encoder_output[0] @ params["W_head"] + params["b_head"]
    return logits
