"""Blind round 30 (b30_04, issue 38): ported from fastai/course22p2 (nbs/04_minibatch_training:
logsumexp with `m[:, None]`; nbs/28_diffusion-attn-cond: SelfAttention with one qkv linear,
rearrange 'n s (h d) -> (n h) s d', then chunk(3)). The student's helpers `logsumexp` and
`log_softmax` are nested in softmax already.

Mistakes:
1. softmax: logsumexp subtracts `m[:, None]` (written for 2-D input): wrong on 3-D input such as
   (heads, T, T), an IndexError on 1-D, and wrong (or a ValueError) along axis=0.
2. self_attention: the fused qkv = x @ [Wq | Wk | Wv] is split per head first, then chunked into
   q, k, v, so with heads > 1 each head's q, k, v come from the wrong columns. Right with one
   head.

Grader: at blind time and now, named: "`np.max(x, axis=axis, keepdims=True)` is written with
`[:, None]` instead of keepdims=True", offered with the same slip in the sum ("One slip, at one
or more of these places") on stable-softmax, whose hidden check fails with no hint line and
whose property could not judge (observation); "q, k, v come from one fused product ... split
per token as (heads, 3, d_h) where its columns are (3, heads, d_h)" on no-causal-mask and
multi-head-attention; vit-checkpoint observes the broken functions. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:kept_by_index:softmax:max.keepdims-as-index+op:kept_by_index:softmax:sum.keepdims-as-index',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major'}


def softmax(x, axis=-1):
    """exp(log_softmax(x)), with the logsumexp trick from the fastai course."""
    def logsumexp(x):
        m = x.max(axis)
        return m + np.log(np.exp(x - m[:, None]).sum(axis))

    def log_softmax(x):
        return x - np.expand_dims(logsumexp(x), axis)

    return np.exp(log_softmax(x))


def self_attention(x, p, heads, causal=False):
    """fastai's SelfAttention: one qkv linear, rearrange 'n s (h d) -> (n h) s d', chunk into q, k, v."""
    s_, ni = x.shape
    if ni % heads:
        raise ValueError(f"width {ni} is not divisible by {heads} heads")
    nheads = heads
    scale = math.sqrt(ni / nheads)
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)    # nn.Linear(ni, ni * 3)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    x = x @ qkv_w + qkv_b
    x = x.reshape(s_, nheads, -1).transpose(1, 0, 2)   # rearrange(x, 'n s (h d) -> (n h) s d', h=nheads)
    q, k, v = np.split(x, 3, axis=-1)                  # torch.chunk(x, 3, dim=-1)
    s = (q @ k.transpose(0, 2, 1)) / scale
    if causal:
        s = np.where(np.tril(np.ones((s_, s_), dtype=bool)), s, -np.inf)
    x = softmax(s, axis=-1) @ v
    x = x.transpose(1, 0, 2).reshape(s_, ni)           # rearrange(x, '(n h) s d -> n s (h d)', h=nheads)
    return x @ p["Wo"] + p["bo"]                       # self.proj
