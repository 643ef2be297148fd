"""Blind round 17 (b17_05, issue 38): self_attention and vit_forward ported from Karpathy's minGPT
(CausalSelfAttention, GPT.forward's `logits[:, -1, :]`).

Mistakes:
1. self_attention's signature is `causal=True`: minGPT's attention is always causal, so a call
   without `causal` masks the later tokens (causal=False passed explicitly is right).
2. vit_forward returns the logits of the last row, `logits[-1]`, instead of the [CLS] row 0.

Only mistake 1 is ported: the student's vit_forward (mistake 2) is left out. The grader names it
twice, vit_last_row on vit-forward's visible check and `op:index:vit_forward:x[-1]` on its hidden
one; an unnamed/ fixture's EXPECT takes one name per exercise and its test counts the other as a
wrong cause. The same `logits[-1]` is in buggy/nanogpt_last_token_mask_hides_diagonal_speed.py.

Grader: at blind time and now, the last row is named (as above); the default is only observed:
no-causal-mask's checklist ("token 0 cannot see the last token ... apply it only when
causal=True"), "returns the expected values only in 1 of T rows" (some_rows_wrong) on
multi-head-attention, and why-positions' equivariance checklist; the signature's default is never
said to be the cause. Not every mistake named.
Since the port (the same session) the default is named on multi-head-attention's checks (a switch's
default flipped in the signature); the properties still get their checklists.
Since session 16 the properties name it too (causal_default_true: every call without `causal`
returns what causal=True returns, and with causal=False passed the property holds), so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true', 'why-positions': 'causal_default_true'}


def self_attention(x, p, heads, causal=True):
    """minGPT CausalSelfAttention: always causal in minGPT, the mask kept on by default."""
    T, C = x.shape
    n_head = heads
    if C % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")
    # calculate query, key, values for all heads in batch and move head forward to be the batch dim
    q = (x @ p["Wq"] + p["bq"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)  # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)
    # causal self-attention; Self-attend: (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    if causal:
        bias = np.tril(np.ones((T, T)))
        att = np.where(bias == 0, float("-inf"), att)
    att = softmax(att, axis=-1)
    y = att @ v  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    y = y.transpose(1, 0, 2).reshape(T, C)  # re-assemble all head outputs side by side
    return y @ p["Wo"] + p["bo"]
