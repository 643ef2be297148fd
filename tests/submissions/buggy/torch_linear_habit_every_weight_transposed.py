"""Every projection as x @ W.T (a torch nn.Linear habit: weights stored (out, in)), though the course's weights multiply from the right as they are.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/linear*:W.T-added'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    dh = d // heads
    q, k, v = ((x @ p["W" + n].T + p["b" + n]).reshape(T, heads, dh).transpose(1, 0, 2) for n in "qkv")
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dh)
    if causal:
        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
    o = (softmax(s) @ v).transpose(1, 0, 2).reshape(T, d)
    return o @ p["Wo"].T + p["bo"]
