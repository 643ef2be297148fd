"""Blind round 71 (b71_06, issue 38): self_attention (with its `Dense`, `Softmax`,
`split_heads_forward` and `group_heads_forward`) ported from AmritanshuV/Numpy-Transformer
`layers/combined/self_attention.py`.

Mistakes:
1. self_attention (lines 116-118 of the file as delivered): the Q/K/V projections built as
   `Dense(W)` without bias (the source's K/Q/V_linear have `use_bias=False`): bq, bk, bv
   ignored, bo used. Wrong whenever bq or bv is non-zero (bk alone shifts each score row by a
   constant).
2. self_attention (lines 129-131): the causal mask built as `np.triu(ones, k=1)` (1 = hidden)
   but applied with the source's convention `np.where(mask == 0, -inf, energy)` (0 = hidden):
   the past and the diagonal hidden, the future kept; the last row is all -inf, so NaN. Wrong
   with causal=True only.
The delivered file's top-level helpers (the classes `Dense` and `Softmax`,
`split_heads_forward`, `group_heads_forward`) are nested here.

Grader: at blind time (3f040026) and now, 95/110. Mistake 1 named on multi-head-attention ("In
`self_attention`, q, k and v are projected without their biases: `x @ p['Wq']`, `x @ p['Wk']`,
`x @ p['Wv']`"; its aside "nanoGPT's attention `Head`" is where the pattern usually comes from,
not this file's source). Mistake 2 only observed, on no-causal-mask's two checks: "Your
`self_attention` returns NaN or inf in 1 of 4 rows (row 3) where every expected value is
finite: look for an overflow ..., inf - inf (a softmax over a row whose scores are all -inf),
...", a list of possible causes that never says the mask is inverted (nor is the bias named
there). Named since, in the same session (error_model/pairs.py: a single that leaves the
student's NaN where they are is paired with every other): both no-causal-mask checks name "2
mistakes at once: (1) ... q, k and v are projected without their biases ... (2) ... your
masking (at your line `energy = np.where(mask == 0, float('-inf'), energy)`) acts as the model
solution's `np.where(mask, scores, -np.inf)` with its condition inverted" (the line since
report/masked_line.py). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': ('op:qkv_bias_free:self_attention:qkv-without-bias'
                             '+op:mask_inverted:self_attention/attention:mask-inverted')}


def self_attention(x, p, heads, causal=False):
    class Softmax():
        def forward(self, x, axis=-1):
            e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e_x / np.sum(e_x, axis=axis, keepdims=True)

    class Dense():
        def __init__(self, weights, bias=None):
            self.w = weights
            self.b = bias

        def forward(self, X):
            self.input_data = X
            self.output_data = np.dot(X, self.w)
            if self.b is not None:
                self.output_data = self.output_data + self.b
            return self.output_data

    def split_heads_forward(x, heads_num, d_k):
        return x.reshape(-1, heads_num, d_k).transpose(1, 0, 2)

    def group_heads_forward(x, heads_num, d_k):
        return x.transpose(1, 0, 2).reshape(-1, heads_num * d_k)

    d_model = x.shape[-1]
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by heads_num")
    heads_num = heads
    d_k = d_model // heads_num
    scale = np.sqrt(d_k)

    K_linear = Dense(p["Wk"])
    Q_linear = Dense(p["Wq"])
    V_linear = Dense(p["Wv"])
    O_linear = Dense(p["Wo"], p["bo"])

    K = split_heads_forward(K_linear.forward(x), heads_num, d_k)
    Q = split_heads_forward(Q_linear.forward(x), heads_num, d_k)
    V = split_heads_forward(V_linear.forward(x), heads_num, d_k)

    energy = np.matmul(Q, K.transpose(0, 2, 1)) / scale

    if causal:
        T = x.shape[0]
        mask = np.triu(np.ones((T, T)), k=1)
        mask = mask[np.newaxis, ...]
        energy = np.where(mask == 0, float('-inf'), energy)

    attention = Softmax().forward(energy)
    output = np.matmul(attention, V)
    concat_output = group_heads_forward(output, heads_num, d_k)
    return O_linear.forward(concat_output)
