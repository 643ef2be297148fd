"""Blind round 81 (b81_09, issue 38): self_attention and encoder_block ported from
b-schoen/gpt_from_scratch `gpt_from_scratch/bigram_with_self_attention.py` (the source's Head and
Block). The delivered file's top-level helpers `_head` and `_feed_forward` are nested in the
functions that call them.

Mistakes:
1. self_attention, through its `_head` (line 101 of the file as delivered): scores scaled by
   `1 / sqrt(n_embed)`, the full width d, instead of `1 / sqrt(d_h)`: wrong only with heads > 1.
2. encoder_block (lines 136-141): the source's `x = ln1(x); x = x + sa(x); x = ln2(x); x = x +
   ffwd(x)`: each residual is taken from the normalised x, not the block's input: wrong on every
   input.

Grader: at blind time (b5c841e9) and now, 90/110. Mistake 1 named on multi-head-attention ("You scaled by 1/sqrt(d),
the model width ... scale by 1/sqrt(d_h).") and no-causal-mask ("the scores are divided by
sqrt(d)"); mistake 2 named on encoder-block ("One slip, made at 2 places: (1) In `encoder_block`,
the residual ... adds back `layer_norm(x, ...)`", both sublayers). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'
                           '+op:residual:encoder_block:residual-from-layer_norm.2'}


def self_attention(x, p, heads, causal=False):
    def _head(x, p, h, d_model, causal):
        """One head of self-attention"""
        T, n_embed = x.shape
        cols = slice(h * d_model, (h + 1) * d_model)
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        q = x @ p["Wq"][:, cols] + p["bq"][cols]

        # compute attention scores ("affinities"), this is our QK matrix
        weights = q @ k.T

        # normalize the attention scores
        weights = weights / math.sqrt(n_embed)

        if causal:
            # masked attention so can only see previous tokens
            tril = np.tril(np.ones((T, T)))
            weights = np.where(tril == 0, -np.inf, weights)

        weights = softmax(weights, axis=-1)

        # perform the weighted aggregation of the values
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        return weights @ v

    T, n_embed = x.shape
    if n_embed % heads != 0:
        raise ValueError(f"{heads=} must divide {n_embed=}")
    d_model = n_embed // heads
    head_outputs = [_head(x, p, h, d_model, causal) for h in range(heads)]
    # concatenate them over the last dimension
    out = np.concatenate(head_outputs, axis=-1)
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def _feed_forward(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    # apply self attention
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)

    # feed forward layer to "think on" the results of the self attention
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + _feed_forward(x, p)

    return x
