"""Blind round 62 (b62_14, issue 38): self_attention and encoder_block ported from
aladdinpersson/Machine-Learning-Collection
`ML/Pytorch/more_advanced/transformer_from_scratch/transformer_from_scratch.py` (SelfAttention:
`energy / (self.embed_size ** (1 / 2))`; TransformerBlock's feed_forward with `nn.ReLU()`). The
student's top-level `feed_forward` is nested in encoder_block here: the builder replaces only the
solution's own definitions.

Mistakes:
21. self_attention (line 98 of the file as delivered): the scores divided by
    `embed_size ** (1/2)`, the full width (as the source does), instead of sqrt(d_h). Wrong only
    with heads > 1 (d_h = d at one head).
22. encoder_block's MLP, feed_forward (line 105): ReLU (the source's `nn.ReLU()`) instead of
    GELU. Wrong on any input with negative pre-activations; vit_forward inherits it.

Grader: at blind time (90d6c97e) and now, 90/110, both named. Mistake 21 on multi-head-attention's
head-count and random checks ("You scaled by 1/sqrt(d), the model width. ... scale by
1/sqrt(d_h).") and, in the error model's words, on no-causal-mask's two ("In `self_attention` (at
the model solution's step `attention(q, k, v, mask)`), the scores are divided by sqrt(d), the
model width, instead of sqrt(d_h) ..."). Mistake 22 on encoder-block's two checks ("The MLP uses
ReLU; ViT's MLP uses GELU, x * Phi(x) ..."); vit-checkpoint observes encoder_block. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'encoder-block': 'encoder_relu'}


def self_attention(x, p, heads, causal=False):
    query_len, embed_size = x.shape
    head_dim = embed_size // heads
    if head_dim * heads != embed_size:
        raise ValueError("Embedding size needs to be divisible by heads")

    values = (x @ p["Wv"] + p["bv"]).reshape(query_len, heads, head_dim)
    keys = (x @ p["Wk"] + p["bk"]).reshape(query_len, heads, head_dim)
    queries = (x @ p["Wq"] + p["bq"]).reshape(query_len, heads, head_dim)

    energy = np.einsum("qhd,khd->hqk", queries, keys)
    if causal:
        mask = np.tril(np.ones((query_len, query_len)))
        energy = np.where(mask == 0, float("-1e20"), energy)

    attention = softmax(energy / (embed_size ** (1 / 2)), axis=2)

    out = np.einsum("hql,lhd->qhd", attention, values).reshape(query_len, heads * head_dim)
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def feed_forward(x, p):
        return np.maximum(x @ p["W1"] + p["b1"], 0) @ p["W2"] + p["b2"]

    attention = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = attention + x
    forward = feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return forward + x
