"""Blind round 39 (b39_09, issue 38): self_attention and encoder_block ported from
SvetimFM/transformer-training-interface (src/models/self_attention.py SelfAttentionHead,
multi_head_attention.py, hidden_layers.py FeedForward, transformer_block.py TransformerBlock with
norm_position="pre"), a GPT-style model. The student's helpers stay nested, as in the file.

Mistakes:
1. self_attention: SelfAttentionHead always applies its `tril` mask (GPT), so causal=False
   still hides later tokens (the API: no mask by default).
2. encoder_block: FeedForward = Linear -> ReLU -> Linear (the lecture: GELU).

Grader: at blind time (b589706), named: "`causal_mask(x.shape[-2]) if causal else None` is
always `causal_mask(x.shape[-2])`" on no-causal-mask (whose default check gets GPT's mask
checklist, gpt_causal_mask) and "You applied GPT's causal mask although causal is False"
(attention_causal) on multi-head-attention: one mistake, told in two different sentences. Now
the check of causal=False lists attention_causal too: the same words on both exercises.
"The MLP uses ReLU" on encoder-block (graded with the grader's self_attention standing in);
why-positions runs the student's always-causal self_attention (attention_not_equivariant);
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': 'attention_not_equivariant',
          'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'encoder-block': 'encoder_relu'}
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d): one SelfAttentionHead per head, concatenated."""
    T, n_embed = x.shape
    if n_embed % heads:
        raise ValueError(f"n_embed {n_embed} is not divisible by {heads} heads")
    head_size = n_embed // heads
    tril = np.tril(np.ones((T, T)))

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        weights = q @ k.T * head_size ** -0.5
        # impose future token mask-out
        weights = np.where(tril == 0, -np.inf, weights)
        weights = softmax(weights, axis=-1)
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        return weights @ v

    out = np.concatenate([head(h) for h in range(heads)], axis=-1)
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """TransformerBlock.forward with use_layer_norm=True, use_residual=True, norm_position="pre"."""
    def feed_forward(h):
        # nn.Sequential(Linear(n_embed, 4 * n_embed), ReLU(), Linear(4 * n_embed, n_embed))
        return np.maximum(h @ p["W1"] + p["b1"], 0.0) @ p["W2"] + p["b2"]

    attn_out = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + attn_out
    ff_out = feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    x = x + ff_out
    return x
