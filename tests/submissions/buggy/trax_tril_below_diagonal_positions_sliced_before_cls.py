"""Blind round 20 (b20_08, issue 38): self_attention and embed_image ported from google/trax
(trax/layers/attention.py, core.py: jnp as the array module, SplitIntoHeads / MergeHeads,
DotProductAttention with `jnp.where(mask, dots, jnp.full_like(dots, -1e9))` and a softmax
through logsumexp, PositionalEncoding adding `pe[:, :symbol_size]`). The student's top-level
helpers (`jnp = np`, `_logsumexp`, `_split_into_heads`, `_merge_heads`, `_causal_mask`,
`_dot_product_attention`, `_positional_encoding`) are nested in the function that uses them here:
the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention (causal=True only): the causal mask is `np.tril(ones, k=-1)`, which also hides
   the diagonal: a token cannot see itself, and the first token sees nothing, so its row is
   uniform over the -1e9 fills.
2. embed_image slices the positions from the start, pos[:N], and adds them to the patch tokens
   before [CLS] is prepended (trax's PositionalEncoding slicing): [CLS] gets no position and patch
   n gets pos[n] instead of pos[n + 1].

Grader: at blind time the positions were named and the mask was not: both causal checks failed
with no hint line. Now both named: the triangle one diagonal off (k=-1 instead of k=0), with the
-1e9 fill where -inf belongs as its quiet part ('~': it changes nothing alone, and the file does
fill with -1e9), and `params['pos'][:len(x)]` added before [CLS] is put in front; vit-checkpoint
observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1'
                            '+~op:infinity_filled:self_attention/attention:minus-inf-as-fill-1e9',
          'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def self_attention(x, p, heads, causal=False):
    jnp = np

    def _logsumexp(x, axis=-1, keepdims=True):
        m = jnp.max(x, axis=axis, keepdims=True)
        out = m + jnp.log(jnp.sum(jnp.exp(x - m), axis=axis, keepdims=True))
        return out if keepdims else jnp.squeeze(out, axis=axis)

    def _split_into_heads(x, n_heads):
        seqlen, d_model = x.shape
        d_head = d_model // n_heads
        x = jnp.reshape(x, (seqlen, n_heads, d_head))
        return jnp.transpose(x, (1, 0, 2))

    def _merge_heads(x):
        n_heads, seqlen, d_head = x.shape
        return jnp.reshape(jnp.transpose(x, (1, 0, 2)), (seqlen, n_heads * d_head))

    def _causal_mask(length):
        return jnp.tril(jnp.ones((1, length, length), dtype=np.bool_), -1)

    def _dot_product_attention(queries, keys, values, mask):
        depth = queries.shape[-1]
        dots = jnp.matmul(queries, jnp.swapaxes(keys, -1, -2)) / jnp.sqrt(depth)
        if mask is not None:
            dots = jnp.where(mask, dots, jnp.full_like(dots, -1e9))
        dots = jnp.exp(dots - _logsumexp(dots, axis=-1, keepdims=True))
        return jnp.matmul(dots, values)

    seqlen, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError(f"d_model {d_model} not divisible by n_heads {heads}.")
    q = _split_into_heads(jnp.dot(x, p["Wq"]) + p["bq"], heads)
    k = _split_into_heads(jnp.dot(x, p["Wk"]) + p["bk"], heads)
    v = _split_into_heads(jnp.dot(x, p["Wv"]) + p["bv"], heads)
    mask = _causal_mask(seqlen) if causal else None
    out = _merge_heads(_dot_product_attention(q, k, v, mask))
    return jnp.dot(out, p["Wo"]) + p["bo"]


def embed_image(image, params):
    jnp = np

    def _positional_encoding(x, pe):
        symbol_size = x.shape[0]
        return x + pe[:symbol_size, :]

    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = _positional_encoding(x, params["pos"])
    return jnp.concatenate([params["cls"][None, :], x], axis=0)
