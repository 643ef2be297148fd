"""Blind round 74 (b74_07, issue 38): self_attention and vit_forward ported from
kawgit/Vision-Transformer `transformer.py` (SelfAttentionBlock with `causal_mask = tril(ones) *
-1e10`; inference reads `embeddings[:, -1]`).

Mistakes:
1. self_attention (lines 102 and 114 of the file as delivered): the causal mask is
   `np.tril(ones) * -1e10` added to the scores, which hides the current and earlier tokens
   instead of the later ones. Wrong with causal=True only.
2. vit_forward (line 141): the logits of the last row, `embeddings[-1]`, instead of the [CLS]
   row 0. Wrong on every image.

Grader: at blind time (997839b5) and now, 95/110. Mistake 1 named on no-causal-mask ("the mask
is added as if it marked the hidden keys, `scores + mask * -1e9` ... Add -1e9 (or set -inf)
where the mask is False"; the code's -1e10 has the same effect); mistake 2 on vit-forward ("The
head reads the last token; [CLS] is row 0." and "In `vit_forward`, `x[0]` reads index -1 instead
of 0: `x[-1]`."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden',
          'vit-forward': 'vit_last_row'}
ALIASES = ('op:index:vit_forward:x[-1]',)


def self_attention(x, p, heads, causal=False):
    current_context_size, embedding_size = x.shape
    if embedding_size % heads != 0:
        raise ValueError("embedding size must be divisible by the number of heads")
    key_size = embedding_size // heads

    keys = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values = x @ p["Wv"] + p["bv"]

    causal_mask = np.tril(np.ones((current_context_size, current_context_size))) * -10000000000

    outputs = []
    for h in range(heads):
        k = keys[:, h * key_size:(h + 1) * key_size]
        q = queries[:, h * key_size:(h + 1) * key_size]
        v = values[:, h * key_size:(h + 1) * key_size]

        attention_scores = q @ k.T
        attention_scores = attention_scores / (key_size ** 0.5)

        if causal:
            attention_scores = attention_scores + causal_mask

        attention_weights = softmax(attention_scores, axis=-1)
        outputs.append(attention_weights @ v)

    return np.concatenate(outputs, axis=-1) @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    embeddings = embed_image(image, params)

    for block in params["blocks"]:
        embeddings = encoder_block(embeddings, block, params["heads"])

    embeddings = layer_norm(embeddings, params["ln_g"], params["ln_b"])

    return embeddings[-1] @ params["W_head"] + params["b_head"]
