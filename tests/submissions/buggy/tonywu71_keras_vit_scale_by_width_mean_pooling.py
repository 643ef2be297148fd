"""Blind round 74 (b74_04, issue 38): self_attention and vit_forward ported from
tonywu71/vision-transformer `model/vision_transformer.py` (the Keras example: Patches,
PatchEncoder, MultiHeadAttention(key_dim=projection_dim)).

Mistakes:
1. self_attention (line 118 of the file as delivered; key_dim = dim at line 110): the scores
   divided by sqrt(d), key_dim being the full width as in the source's
   `key_dim=projection_dim`, instead of sqrt(d_h). Wrong with heads > 1 only.
2. vit_forward (line 162): the classifier reads the mean over all tokens after the final
   LayerNorm, not the [CLS] row.

Grader: at blind time (997839b5) and now, 89/110 with scipy, as the tests run (the delivered file's
`gelu` imports `scipy.special.erf`; the judge's venv had no scipy and gave 83, the 6 points of
encoder-block lost to the NameError, which the grader named as such). Mistake 1 named on
multi-head-attention ("You scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)") and
no-causal-mask ("the scores are divided by sqrt(d) (at your line `scores = query @ key.transpose(0,
2, 1) / math.sqrt(key_dim)`), the model width, instead of sqrt(d_h)"); mistake 2 on vit-forward
("You averaged every token. This model's head reads the [CLS] row only: x[0] after the final
LayerNorm"); vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def self_attention(x, p, heads, causal=False):
    # MultiHeadAttention(num_heads=num_heads, key_dim=projection_dim)
    seq_len, dim = x.shape
    if dim % heads != 0:
        raise ValueError("projection_dim must be divisible by num_heads")
    key_dim = dim
    head_size = dim // heads
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    query = query.reshape(seq_len, heads, head_size).transpose(1, 0, 2)
    key = key.reshape(seq_len, heads, head_size).transpose(1, 0, 2)
    value = value.reshape(seq_len, heads, head_size).transpose(1, 0, 2)
    scores = query @ key.transpose(0, 2, 1) / math.sqrt(key_dim)
    if causal:
        scores = np.where(np.tril(np.ones((seq_len, seq_len))) == 1, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    attention_output = (weights @ value).transpose(1, 0, 2).reshape(seq_len, dim)
    return attention_output @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    encoded_patches = embed_image(image, params)

    # Create multiple layers of the Transformer block.
    for block in params["blocks"]:
        encoded_patches = encoder_block(encoded_patches, block, params["heads"])

    # Create a [projection_dim] representation.
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    representation = representation.mean(axis=0)

    # Classify outputs.
    logits = representation @ params["W_head"] + params["b_head"]
    return logits
