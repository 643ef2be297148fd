"""Blind round 49 (b49_07, issue 38): self_attention from RasKrebs/llms4code_code_quality,
multihead-attention/gpt-4-turbo/medium.py (`split_into_heads`, `forward`), the batch axis removed
and the biases and the causal option added; encoder_block after NeuralClassifier/mini-language-
model, transformer/README.md (`X' = LayerNorm(X + SelfAttention(X))`, `Y = LayerNorm(X' +
FFN(X'))`).

Mistakes:
1. The heads are merged without the transpose back: the source's `np.transpose(scaled_attention,
   perm=[0, 2, 1, 3])` is dropped, so `(heads, T, d_h).reshape(-1, d)` interleaves the heads
   across rows. Right for heads = 1 or T = 1.
2. The block is post-LN: `LN1(x + attn(x))`, then `LN2(X1 + mlp(X1))`, attention reading the
   un-normalised x.

Grader: at blind time (7e618553) and now, both named: mistake 1 on no-causal-mask (at blind time
"In `self_attention` (at the lecture's step `merge_heads(attention(q, k, v, mask))`),
`x.swapaxes(-2, -3)` is used without its transpose: `x` as it is."; now: "In `self_attention`, the
heads' outputs are merged by a reshape without moving the head axis back first ..."),
multi-head-attention failing alongside; mistake 2 on encoder-block ("That is a post-LN block
(LayerNorm after each residual sum, as in the 2017 Transformer). ViT is pre-LN: ...");
why-positions fails with the checklist, vit-checkpoint observes both. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'encoder-block': 'encoder_post_ln'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def self_attention(x, p, heads, causal=False):
    seq_len, embedding_size = x.shape
    if embedding_size % heads:
        raise ValueError(f"embedding size {embedding_size} is not divisible by {heads} heads")
    depth = embedding_size // heads

    def split_into_heads(y):
        y = y.reshape(seq_len, heads, depth)
        return np.transpose(y, (1, 0, 2))  # (num_heads, seq_len, depth)

    q = split_into_heads(x @ p["Wq"] + p["bq"])
    k = split_into_heads(x @ p["Wk"] + p["bk"])
    v = split_into_heads(x @ p["Wv"] + p["bv"])

    matmul_qk = q @ np.transpose(k, (0, 2, 1))
    logits = matmul_qk / np.sqrt(depth)
    if causal:
        logits = np.where(np.tril(np.ones((seq_len, seq_len))) == 1, logits, -np.inf)
    attention_weights = softmax(logits, axis=-1)
    scaled_attention = attention_weights @ v  # (num_heads, seq_len, depth)

    # Concatenation of heads
    concat_attention = scaled_attention.reshape(-1, embedding_size)

    # Final linear layer
    return concat_attention @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    # Self-Attention with Residual Connection
    A = self_attention(x, p, heads)
    X1 = layer_norm(x + A, p["ln1_g"], p["ln1_b"])
    # Feed-Forward Network with Residual Connection
    F = gelu(X1 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(X1 + F, p["ln2_g"], p["ln2_b"])
