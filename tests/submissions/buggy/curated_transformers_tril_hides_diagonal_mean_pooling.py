"""Blind round 73 (b73_14, issue 38): self_attention and vit_forward ported from
explosion/curated-transformers `curated_transformers/layers/activations.py`.

Mistakes:
1. self_attention (its causal_mask, line 110 of the file as delivered):
   `np.tril(..., k=-1)` hides the diagonal too; token 0 sees nothing (filled with finfo.min, a
   uniform row). Wrong with causal=True only.
2. vit_forward (line 149): the mean over all tokens instead of the [CLS] row.
The delivered file's top-level helper causal_mask is nested in self_attention here.

Grader: at blind time (6245b55a) and now, 95/110. Mistake 1 named on no-causal-mask (at blind time
"line 110 ... is one diagonal off ... Write k=0 there"; now: "(in your `causal_mask`, which it
calls: line ..., `return np.tril(...)`) ... is one diagonal off ... Write k=0 there"); mistake 2 on
vit-forward ("You averaged every token ... reads the [CLS] row only"); vit-checkpoint observes the
pipeline. The judge found every mistake named but the causal-mask hint's caveat wrong: "Fix this
first: your code's other difference shows here only in what this slip leads to (a query left with
no key); whether it is also a mistake ... these cases cannot tell", where the only other
difference, the `finfo.min` fill, is harmless (with k=0 the file scores 7/7 there), so it sends a
student looking for a second mistake that does not exist. Since af73000d a fill that is the dtype's
minimum, with no other large number in the student's code, is said as harmless: "Fixing this is
enough: your code's one other difference shows only in what this slip leads to (a query left with
no key), never where the model solution's code runs" (report/minimum_fill.py). Every mistake named,
no hint wrong: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': ('op:diagonal:self_attention/causal_mask:tri.k=-1'
                             '+~op:infinity_filled:self_attention/attention:minus-inf-as-fill-1e9'),
          'vit-forward': 'vit_mean_pool_all_tokens'}


def self_attention(x, p, heads, causal=False):
    def causal_mask(seq_len):
        # True where a query may attend to a key
        return np.tril(np.ones((seq_len, seq_len), dtype=bool), k=-1)

    seq_len, width = x.shape
    if width % heads != 0:
        raise ValueError(f"Width {width} must be divisible by the number of heads {heads}")
    head_width = width // heads

    def split_heads(t):
        return t.reshape(seq_len, heads, head_width).transpose(1, 0, 2)

    query = split_heads(x @ p["Wq"] + p["bq"])
    key = split_heads(x @ p["Wk"] + p["bk"])
    value = split_heads(x @ p["Wv"] + p["bv"])

    attn_scores = query @ key.transpose(0, 2, 1) / math.sqrt(head_width)
    if causal:
        attn_scores = np.where(causal_mask(seq_len), attn_scores, np.finfo(attn_scores.dtype).min)
    attn_weights = softmax(attn_scores, axis=-1)
    attn_values = attn_weights @ value

    merged = attn_values.transpose(1, 0, 2).reshape(seq_len, width)
    return merged @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = x.mean(axis=0)
    return pooled @ params["W_head"] + params["b_head"]
