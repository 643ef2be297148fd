"""Blind round 52 (b52_08, issue 38): self_attention ported from the per-head loop of a numpy
SASRec `_multi_head_attention` (`scores = (Q @ K.T) / np.sqrt(d)`, `np.where(mask > 0, scores,
-1e9)`), adapted to column slices and biases; one concept answer changed by hand.

Mistakes:
1. The scores are scaled by 1/sqrt(d), the model width, not 1/sqrt(d_h). Right with heads = 1;
   wrong with heads > 1, where encoder_block and vit_forward differ too.
2. `ANSWERS["positions"] = "resolution"`. The right option is "permutation".

Grader: at blind time (db53909c) and now, both named: M1 on multi-head-attention ("You scaled by
1/sqrt(d), the model width. Each head's dot products are over d_h = d // heads numbers: scale by
1/sqrt(d_h).") and on no-causal-mask ("In `self_attention` (where each head's attention weights are
computed and applied to its values), the scores are divided by sqrt(d) (at your line `scores = (Q @
K.T) / np.sqrt(d)`), the model width, instead of sqrt(d_h) = `math.sqrt(q.shape[-1])` (d_h = d //
heads)."), M2 on why-positions ("Positions do not let a ViT take larger images ... They are there
because attention is permutation-equivariant: without positions the patches are a bag of tiles.");
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'why-positions': 'positions:resolution'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention.

    Args:
        x: (seq_len, d) input sequence.
        p: dict of attention weights.
    Returns:
        (seq_len, d) attended output.
    """
    n_heads = heads
    seq_len, d = x.shape
    if d % n_heads != 0:
        raise ValueError("model dimension must be divisible by num_heads")
    head_dim = d // n_heads
    mask = np.tril(np.ones((seq_len, seq_len))) if causal else np.ones((seq_len, seq_len))

    # Compute Q, K, V for each head
    heads_out = []
    for h in range(n_heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        Q = x @ p["Wq"][:, cols] + p["bq"][cols]  # (seq_len, head_dim)
        K = x @ p["Wk"][:, cols] + p["bk"][cols]  # (seq_len, head_dim)
        V = x @ p["Wv"][:, cols] + p["bv"][cols]  # (seq_len, head_dim)

        # Scaled dot-product attention
        scores = (Q @ K.T) / np.sqrt(d)  # (seq_len, seq_len)

        scores = np.where(mask > 0, scores, -1e9)

        attn_weights = softmax(scores)  # (seq_len, seq_len)
        head_out = attn_weights @ V  # (seq_len, head_dim)
        heads_out.append(head_out)

    # Concatenate heads and project
    concat = np.concatenate(heads_out, axis=-1)  # (seq_len, n_heads * head_dim)
    output = concat @ p["Wo"] + p["bo"]  # (seq_len, d)
    return output


ANSWERS["positions"] = "resolution"
