"""Blind round 59 (b59_02, issue 38): self_attention ported from lukemelas/PyTorch-Pretrained-ViT
`pytorch_pretrained_vit/transformer.py` (split_last, merge_last, MultiHeadedSelfAttention, with
its additive causal mask), with encoder_block ported right (CORRECT: Block, which applies the
output projection `self.proj` after the attention, as the file does). The student's top-level
`split_last` / `merge_last` are nested in self_attention and `pwff` in encoder_block here: the
builder replaces only the solution's own definitions.

Mistakes:
3. self_attention (line 136 of the file as delivered, `return h`): as in the source, the
   attention module has no output projection; `Wo, bo` are applied in encoder_block (line 151,
   the source's `Block.proj`). self_attention alone is wrong on any input; encoder_block and
   vit_forward are right.
   (found at grading, not in the key) self_attention (line 130): the causal mask is added as
   `scores - 10000.0 * (1.0 - mask)`, not -inf: scores of size ~1e4 (inputs far from zero)
   leak through it. no-causal-mask's spec asks for that too ("-1e4 is not enough once scores
   reach 1e4"); with only mistake 3 fixed the file still loses 2 points there.

Grader: at blind time (528b2ec3), 100/110. Mistake 3 named only partly: multi-head-attention's
and no-causal-mask's checks say "In `self_attention`, the step is left out: `out` goes on as it
is.", which names neither the step (the output projection `@ Wo + bo`) nor a variable of the
code (theirs is `h`), nor line 151. The -10000 mask named with it on no-causal-mask's causal
check ("2 mistakes at once: ... -10000 is not low enough ..."). Named since: "In
`self_attention`, the output projection (`... @ p['Wo'] + p['bo']`) is left out: its input goes
on as it is. Your `encoder_block` applies it to what `self_attention` returns (line ...: `h = h
@ p["Wo"] + p["bo"]`): move it into `self_attention` ..."; moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:skip:self_attention:skip-linear.4',
          'no-causal-mask': 'op:skip:self_attention:skip-linear.4'}
ALIASES = ('op:shallow_fill:self_attention/attention:minus-inf-as-added-1e4',)  # the -10000 mask
CORRECT = ('encoder_block',)  # Block: the output projection applied after self_attention


def self_attention(x, p, heads, causal=False):
    """MultiHeadedSelfAttention.forward.
    x, q(query), k(key), v(value) : (S(seq_len), D(dim))
    * split D(dim) into (H(n_heads), W(width of head)) ; D = H * W
    """
    def split_last(x, shape):
        "split the last dimension to given shape"
        shape = list(shape)
        assert shape.count(-1) <= 1
        if -1 in shape:
            shape[shape.index(-1)] = int(x.shape[-1] / -np.prod(shape))
        return x.reshape(*x.shape[:-1], *shape)

    def merge_last(x, n_dims):
        "merge the last n_dims to a dimension"
        s = x.shape
        assert n_dims > 1 and n_dims < len(s)
        return x.reshape(*s[:-n_dims], -1)

    S, D = x.shape
    if D % heads:
        raise ValueError(f"dim {D} not divisible by {heads} heads")
    # (S, D) -proj-> (S, D) -split-> (S, H, W) -trans-> (H, S, W)
    q, k, v = x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]
    q, k, v = (split_last(t, (heads, -1)).transpose(1, 0, 2) for t in [q, k, v])
    # (H, S, W) @ (H, W, S) -> (H, S, S) -softmax-> (H, S, S)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(k.shape[-1])
    if causal:
        mask = np.tril(np.ones((S, S)))
        scores = scores - 10000.0 * (1.0 - mask)
    scores = softmax(scores, axis=-1)
    # (H, S, S) @ (H, S, W) -> (H, S, W) -trans-> (S, H, W)
    h = (scores @ v).transpose(1, 0, 2)
    # -merge-> (S, D)
    h = merge_last(h, 2)
    return h


def encoder_block(x, p, heads):
    """Block.forward (eq 1-3)."""
    def pwff(x, p):
        # (S, D) -> (S, D_ff) -> (S, D)
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    h = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)  # eq 1
    h = h @ p["Wo"] + p["bo"]                                            # eq 1, self.proj
    x = x + h                                                            # eq 2
    h = pwff(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)                   # eq 3
    x = x + h                                                            # eq 3
    return x
