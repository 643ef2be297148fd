"""Blind round 39 (b39_02, issue 38): self_attention and vit_forward ported from
branislavhesko/visual-transformers (modeling/vit.py: MultiHeadAttention with einops heads,
ClassificationHead, VIT.forward).

Mistakes:
1. self_attention: `mh_out = softmax(energy); out = einsum(mh_out / divider, values)` with
   divider = sqrt(embed_size): the scores are not scaled, the softmax WEIGHTS are divided by
   sqrt(d) afterwards (the lecture: softmax(q k^T / sqrt(d_h)) v). Shows with one head too.
2. vit_forward: ClassificationHead = Reduce("b n e -> b e", mean) -> LayerNorm -> Linear: the
   logits come from the mean over all tokens, layer-normed, not from the [CLS] row.

Grader: at blind time (b589706) and now, named: with one head at blind time "`/
math.sqrt(q.shape[-1])` is applied to the output of `softmax(scores)` instead of to its input"
(now: "the model solution's `/ math.sqrt(q.shape[-1])` is applied to the output of the model
solution's `softmax(scores)` instead of to its input ..."), with several heads and on
no-causal-mask "2 mistakes at once" (the scores divided by sqrt(d), the model width, and the
division after the softmax: together the file's one slip); on vit-forward "`x[0]` is read as
`x.mean(axis=0)`" (graded with the grader's self_attention standing in); vit-checkpoint observes
the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)+op:scale_after:self_attention/attention:scores-scaled-after-softmax',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(d)+op:scale_after:self_attention/attention:scores-scaled-after-softmax',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, embed_size = x.shape
    if embed_size % heads != 0:
        raise ValueError(f"embed size {embed_size} is not divisible by {heads} heads")
    num_heads = heads
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]
    queries = x @ p["Wq"] + p["bq"]
    # "b n (h e) -> b n h e"
    keys = keys.reshape(T, num_heads, -1)
    queries = queries.reshape(T, num_heads, -1)
    values = values.reshape(T, num_heads, -1)
    energy_term = np.einsum("qhe,khe->hqk", queries, keys)
    if causal:
        energy_term = np.where(np.tril(np.ones((T, T), dtype=bool)), energy_term, -np.inf)
    divider = math.sqrt(embed_size)
    mh_out = softmax(energy_term, -1)
    out = np.einsum("hqk,khe->qhe", mh_out / divider, values)
    # "b n h e -> b n (h e)"
    out = out.reshape(T, embed_size)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    def classification_head(x):
        # ClassificationHead: Reduce("b n e -> b e", reduction="mean"), LayerNorm, Linear
        x = x.mean(axis=0)
        x = layer_norm(x, params["ln_g"], params["ln_b"])
        return x @ params["W_head"] + params["b_head"]

    positions = embed_image(image, params)
    encoder = positions
    for layer in params["blocks"]:          # TransformerEncoder(nn.Sequential)
        encoder = encoder_block(encoder, layer, params["heads"])
    return classification_head(encoder)
