"""Blind round 59 (b59_08, issue 38): self_attention and vit_forward ported from
CompVis/taming-transformers `taming/modules/transformer/mingpt.py` (CausalSelfAttention, which
always masks; GPT's head, `nn.Linear(n_embd, vocab_size, bias=False)`).

Mistakes:
13. self_attention (line 91 of the file as delivered): `causal=True` by default (minGPT always
    masks). Wrong for any call that does not pass `causal` (T > 1): self_attention(x, p, h),
    encoder_block and vit_forward; explicit causal=False/True agree.
14. vit_forward (line 133): the classification head has no bias; `b_head` is never added. Wrong
    whenever b_head != 0.

Grader: at blind time (528b2ec3) and now, 88/110, both named. Mistake 13 on multi-head-attention
("In `self_attention`, `causal` defaults to True (`causal=True` in the signature) ..."), and on
no-causal-mask and why-positions; mistake 14 on vit-forward ("In `vit_forward` (where
`params['W_head']` multiplies its input and `params['b_head']` is added), the bias `b` is left
out"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true',
          'vit-forward': 'op:term:vit_forward/linear:drop-b'}


def self_attention(x, p, heads, causal=True):
    """CausalSelfAttention.forward for one sequence x of shape (T, C)."""
    T, C = x.shape
    n_head = heads
    if C % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")
    # calculate query, key, values for all heads and move head forward to be the batch dim
    k = (x @ p["Wk"] + p["bk"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)  # (nh, T, hs)
    q = (x @ p["Wq"] + p["bq"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)  # (nh, T, hs)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, n_head, C // n_head).transpose(1, 0, 2)  # (nh, T, hs)

    # Self-attend: (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    if causal:
        mask = np.tril(np.ones((T, T)))
        att = np.where(mask == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    y = y.transpose(1, 0, 2).reshape(T, C)  # re-assemble all head outputs side by side

    # output projection
    return y @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # ln_f
    logits = x[0] @ params["W_head"]                    # head
    return logits
