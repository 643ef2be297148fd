"""Blind round 62 (b62_04, issue 38): softmax and self_attention ported from
modern-fortran/neural-fortran `src/nf/nf_multihead_attention_submodule.f90` (split_heads,
create_attention_matrix, normalize_attention_matrix, scaled_dot_product_attention, combine_heads:
per-head loops over a (seq, head_size, n_heads) array) and `src/nf/nf_activation.f90` (softmax).
The student's top-level `split_heads` and `combine_heads` are nested in self_attention here: the
builder replaces only the solution's own definitions.

Mistakes:
5. self_attention through split_heads / combine_heads (lines 107 and 112 of the file as
   delivered): Fortran's column-major `reshape(x, [seq, head_size, n_heads])` ported as numpy's
   C-order reshape, so head h takes the interleaved columns h, h + n_heads, ... (and the merge
   the same way). Wrong only with heads > 1.
6. softmax (lines 90-91): the Fortran `exp(x - maxval(x)) / sum(...)` with no `dim`: the max and
   the sum over the whole array, `axis` ignored. Wrong for any input of more than one row (a 1-D
   vector is right).

Grader: at blind time (90d6c97e) and now, 89/110, both named. Mistake 5 on multi-head-attention's
head-count and random checks and no-causal-mask's mask check ("Your heads take interleaved columns
(h, h + heads, ...). ... reshape(T, heads, d_h), not reshape(T, d_h, heads)"), and on
no-causal-mask's random check in the error model's words ("In `self_attention`, your heads take
interleaved columns: each token's columns are read as (d // heads, heads) ..."). Mistake 6 on
stable-softmax's small, overflow and random checks ("One slip, made at 2 places: (1) ...
`np.max(x, keepdims=True)` in place of `np.max(x, axis=axis, keepdims=True)` (2) ... `np.sum(e,
keepdims=True)` in place of `np.sum(e, axis=axis, keepdims=True)`"); its sum-to-1 property gets
the checklist; vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
Since blind round 68 the softmax is told by its sum over the whole array, its max's place as one these cases cannot tell (over the whole array, the max changes none
of the values once the sum is too).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=None+~op:axis:softmax:max.axis=None',
          'multi-head-attention': 'attention_heads_interleaved',
          'no-causal-mask': 'op:heads_interleaved:self_attention:heads-interleaved-split-and-merge'}


def softmax(x, axis=-1):
    """nf_activation: softmax % eval."""
    x = np.asarray(x, dtype=float)
    res = np.exp(x - np.max(x))
    res = res / np.sum(res)
    return res


def self_attention(x, p, heads, causal=False):
    def split_heads(input, n_heads):
        sequence_length, model_dimension = input.shape
        head_size = model_dimension // n_heads
        return np.reshape(input, (sequence_length, head_size, n_heads))

    def combine_heads(input):
        sequence_length, head_size, n_heads = input.shape
        return np.reshape(input, (sequence_length, head_size * n_heads))

    sequence_length, model_dimension = x.shape
    if model_dimension % heads != 0:
        raise ValueError("Number of heads must be divisible by model dimension")
    n_heads = heads
    head_size = model_dimension // n_heads

    q = split_heads(x @ p["Wq"] + p["bq"], n_heads)
    k = split_heads(x @ p["Wk"] + p["bk"], n_heads)
    v = split_heads(x @ p["Wv"] + p["bv"], n_heads)

    # create_attention_matrix
    attention_matrix = np.zeros((sequence_length, sequence_length, n_heads))
    for head in range(n_heads):
        attention_matrix[:, :, head] = q[:, :, head] @ k[:, :, head].T

    # normalize_attention_matrix
    scaling_factor = math.sqrt(1 / head_size)
    attention_matrix = attention_matrix * scaling_factor
    for head in range(n_heads):
        for seq in range(sequence_length):
            row = attention_matrix[seq, :, head]
            if causal:
                row = np.where(np.arange(sequence_length) <= seq, row, -np.inf)
            attention_matrix[seq, :, head] = softmax(row)

    # scaled_dot_product_attention
    sdpa = np.zeros((sequence_length, head_size, n_heads))
    for head in range(n_heads):
        sdpa[:, :, head] = attention_matrix[:, :, head] @ v[:, :, head]

    output = combine_heads(sdpa)
    return output @ p["Wo"] + p["bo"]
