"""Blind round 7 (b7_13, issue 38): per-head-loop self_attention that slices Wo by columns like
Wq/Wk/Wv, vit_forward that applies each block to the embedded tokens, and a softmax that loops
over the first axis.

Mistakes:
1. self_attention: in the per-head loop every projection is sliced by columns h*d_h:(h+1)*d_h,
   Wo included (`head_out @ Wo[:, cols]`); Wo's head slice is its rows. With one head the slice
   is all of Wo; with heads > 1 the matmul (T, d_h) @ (d, d_h) raises ValueError. Shows only
   with heads > 1.
2. vit_forward: every block is applied to the embedded tokens, `h = encoder_block(tokens, ...)`,
   so only the last block's output is kept. Shows only with depth >= 2.
3. softmax: loops over the first axis and normalises each `row` with row.max()/row.sum()
   (written for (T, T) score matrices); for a 3-D+ input each row is a matrix and is normalised
   as a whole. Shows only on 3-D+ input.

Grader: Wo's slice is observed (only_one_head) and why-positions says the property could not be
judged (traceback at `head_out @ p["Wo"][:, cols]`). The softmax was observed (only_2d_inputs)
plus the sums checklist; since session 18 its hidden check names it (fused.py: the max and the
sum over each row of the array with `axis` moved last, `np.moveaxis(x, axis, -1)`; since blind
round 68 by the sum's, the max's place said as one the cases cannot tell). The blocks
got only vit-forward's checklist ("every block of params['blocks']"); since b7084bbc (the error
model's loop update that reads the name as it was before the loop) they are named: "In
`vit_forward`, every pass of the model solution's `for block in params['blocks']` reads `x` as it
was before the loop: `encoder_block(x, block, params['heads'])` is not chained, each pass starts
from the same `x` and only the last one's output is kept". At b9994292 (81/110) Wo's slice is
still only observed ("Your `self_attention` is right with one head, and raises ValueError with
heads=2: look at each step that depends on the number of heads ..."), so in unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': None,
          'stable-softmax': 'op:all_but_first:softmax:sum.axis-moved-rows+'
                            '~op:all_but_first:softmax:max.axis-moved-rows',
          'no-causal-mask': None,
          'multi-head-attention': None,
          'vit-forward': 'op:unchained:vit_forward:x-not-carried'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    x = np.moveaxis(x, axis, -1)
    out = np.empty_like(x)
    for i, row in enumerate(x):                 # one row per token
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return np.moveaxis(out, -1, axis)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"d={d} not divisible by heads={heads}")
    hs = d // heads
    out = np.zeros((T, d))
    for h in range(heads):
        cols = slice(h * hs, (h + 1) * hs)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        a = q @ k.T / np.sqrt(hs)
        if causal:
            a = a + np.triu(np.full((T, T), -np.inf), 1)
        head_out = softmax(a, axis=-1) @ v
        out += head_out @ p["Wo"][:, cols]
    return out + p["bo"]


def vit_forward(image, params):
    tokens = embed_image(image, params)
    h = tokens
    for blk in params["blocks"]:
        h = encoder_block(tokens, blk, params["heads"])
    h = layer_norm(h, params["ln_g"], params["ln_b"])
    return h[0] @ params["W_head"] + params["b_head"]
