"""Blind round 20 (b20_13, issue 38): softmax and self_attention ported from chainer/chainer's
Transformer example (examples/transformer/net.py: F.split_axis into heads concatenated along the
batch axis, F.batch_matmul, make_history_mask with an arange comparison, F.where(mask, A, minfs),
F.softmax, whose axis defaults to 1). The student's top-level `xp = np` and `_make_history_mask`
are nested in the functions that use them here: the builder replaces only the solution's own
definitions.

Mistakes:
1. softmax's default axis is 1, Chainer's F.softmax(x, axis=1): the same as -1 on 2-D input,
   wrong on batched (3-D and more) input, an AxisError on 1-D input.
2. self_attention (causal=True only): the history mask is `arange[None, :] >= arange[:, None]`
   (the comparison reversed), so each query sees itself and the later tokens, not the earlier
   ones.

Grader: at blind time the mask was named ("Your mask is upside down") and the default axis was
not: the checklists "Pass `axis` and keepdims=True ..." (which the code does) and "softmax(x) =
softmax(x - max(x))" (a wrong step: the code shifts by the max; the failure is the AxisError),
and no hint on the hidden check. Now both named: "`axis` defaults to 1 (`axis=1` in the
signature)" on every softmax check, and attention_mask_transposed. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1',
          'no-causal-mask': 'attention_mask_transposed'}


def softmax(x, axis=1):
    xp = np

    x = xp.asarray(x, dtype=float)
    y = x - x.max(axis=axis, keepdims=True)
    xp.exp(y, out=y)
    y /= y.sum(axis=axis, keepdims=True)
    return y


def self_attention(x, p, heads, causal=False):
    xp = np

    def _make_history_mask(length):
        arange = xp.arange(length)
        return arange[None, ] >= arange[:, None]

    length, n_units = x.shape
    h = heads
    if n_units % h != 0:
        raise ValueError("n_units must be divisible by h")
    scale_score = 1.0 / (n_units // h) ** 0.5
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    batch_Q = xp.stack(xp.split(Q, h, axis=1))        # (h, length, d_h)
    batch_K = xp.stack(xp.split(K, h, axis=1))
    batch_V = xp.stack(xp.split(V, h, axis=1))
    batch_A = xp.matmul(batch_Q, batch_K.transpose(0, 2, 1)) * scale_score
    if causal:
        batch_mask = xp.broadcast_to(_make_history_mask(length), batch_A.shape)
        minfs = xp.full(batch_A.shape, -xp.inf)
        batch_A = xp.where(batch_mask, batch_A, minfs)
    batch_A = softmax(batch_A, axis=2)
    batch_C = xp.matmul(batch_A, batch_V)              # (h, length, d_h)
    C = xp.concatenate(list(batch_C), axis=1)          # F.concat(F.split_axis(.., h, 0), 1)
    return C @ p["Wo"] + p["bo"]
