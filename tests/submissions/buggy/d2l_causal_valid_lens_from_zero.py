"""Blind round 18 (b18_04, issue 38): self_attention ported from d2l.ai (masked_softmax /
sequence_mask, MultiHeadAttention's transpose_qkv / transpose_output), the causal mask as d2l's
decoder valid lengths.

Mistake:
1. causal=True: the valid lengths are `np.arange(T)` instead of d2l's `arange(1, T + 1)`: query i
   keeps only keys j < i (the diagonal is hidden), and the first query, with no valid key, has its
   whole row filled with -1e6 and attends uniformly to every token. causal=False is right.
The student's helpers (top-level in the file: sequence_mask, masked_softmax, transpose_qkv,
transpose_output) are nested in self_attention here: the builder replaces only the solution's own
definitions.

Grader: at blind time and now, the diagonal is named, but as part (1) of "2 mistakes at once": part
(2), "`x` is clipped to a bound where the lecture subtracts its max (`np.clip(x, -50, 50)`)", is
WRONG: nothing is clipped (the file's softmax subtracts the max; the uniform first row is the -1e6
fill of a row with no valid key, the same off-by-one).
Since the port (the same session) nothing is named here: the blind hint's second cause (a softmax
clipped at 50) is one of two the cases cannot tell apart (the same mask one diagonal off with its
hidden scores filled with a large finite number, which is what d2l's -1e6 does, reproduces them
too), so neither is said.
Since the twelfth session the triangle one diagonal off is named alone: the finite fill (or a
clip) changes nothing alone on any case, so it is no mistake and is not told; every reading the
cases allow tells the same triangle. Wholly named: moved to buggy/.
Since round 57 the visible check has a case of tokens far from zero (x 100), where the
same triangle with a -10000 fill returns these values too (the slip's rows leave no score far
below it): the triangle is in every reading, so it is still named, said with "Fix this first ...
whether it is also a mistake where the model solution's code runs, these cases cannot tell" in
place of "Fixing this is enough" (true: -1e6 hides scores of 1e4, but no case shows it).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1+~op:infinity_filled:self_attention/attention:minus-inf-as-fill-1e9'}


def self_attention(x, p, heads, causal=False):
    """d2l MultiHeadAttention; its helpers (top-level in the student's file) nested here."""
    def sequence_mask(X, valid_len, value=0):
        """Mask irrelevant entries in sequences."""
        maxlen = X.shape[1]
        mask = np.arange(maxlen, dtype=np.float32)[None, :] < valid_len[:, None]
        X = X.copy()
        X[~mask] = value
        return X

    def masked_softmax(X, valid_lens):
        """Perform softmax operation by masking elements on the last axis."""
        if valid_lens is None:
            return softmax(X, axis=-1)
        shape = X.shape
        if valid_lens.ndim == 1:
            valid_lens = np.repeat(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        # masked elements on the last axis are replaced with a very large negative value
        X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return softmax(X.reshape(shape), axis=-1)

    def transpose_qkv(X, num_heads):
        """(T, d) -> (num_heads, T, d / num_heads)."""
        X = X.reshape(X.shape[0], num_heads, -1)
        return X.transpose(1, 0, 2)

    def transpose_output(X, num_heads):
        """Reverse transpose_qkv."""
        X = X.transpose(1, 0, 2)
        return X.reshape(X.shape[0], -1)

    num_hiddens = x.shape[1]
    if num_hiddens % heads:
        raise ValueError("num_hiddens must be divisible by num_heads")
    queries = transpose_qkv(x @ p["Wq"] + p["bq"], heads)
    keys = transpose_qkv(x @ p["Wk"] + p["bk"], heads)
    values = transpose_qkv(x @ p["Wv"] + p["bv"], heads)
    num_steps = x.shape[0]
    valid_lens = None
    if causal:
        # decoder self-attention: query i may attend to keys before it
        valid_lens = np.tile(np.arange(num_steps), (heads, 1))
    d = queries.shape[-1]
    scores = queries @ keys.transpose(0, 2, 1) / math.sqrt(d)
    attention_weights = masked_softmax(scores, valid_lens)
    output = attention_weights @ values
    return transpose_output(output, heads) @ p["Wo"] + p["bo"]
