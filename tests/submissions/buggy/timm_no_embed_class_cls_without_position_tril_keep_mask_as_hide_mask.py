"""Blind round 49 (b49_03, issue 38): embed_image from the `no_embed_class` branch of `_pos_embed`
(Ace1928/eidosian_forge, archive_forge/code/func__pos_embed.py: `x = x + pos_embed`, then the
[CLS] token concatenated), adapted to the (N + 1, d) `pos` as `pos[1:]`; the causal helper of
self_attention from gaminghusky1/AIProjects, base_model/masks.py (`causal()`:
`np.tril(np.ones(..., dtype=np.bool_))`, "Upper triangle of -inf"; top-level in the student's
file, nested here).

Mistakes:
1. embed_image gives [CLS] no position: rows 1..N get `pos[1:]`, row 0 is the bare `cls`, where
   the solution's row 0 is `cls + pos[0]`.
2. The causal mask is inverted: the tril mask (True = keep) is used as True = hide,
   `np.where(causal_mask(T), -np.inf, scores)`; with causal=True query i sees only keys j > i and
   the last row is all masked (NaN). causal=False matches.

Grader: at blind time (7e618553) and now, both named: mistake 1 on cls-and-positions ("You added the
positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at all.
Prepend [CLS] first, then add all N + 1 rows of params["pos"]."), mistake 2 on no-causal-mask
(now, with the student's line, report/masked_line.py: "In `self_attention` (where each head's
attention weights are computed and applied to its values), your masking (at your line `scores =
np.where(causal_mask(T), -np.inf, scores)`) acts as the model solution's `np.where(mask, scores,
-np.inf)` with its condition inverted, `np.where(~mask, scores, -np.inf)`: ...");
vit-checkpoint observes both functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos_embed = params["pos"]
    x = x + pos_embed[1:]
    cls_token = params["cls"][None, :]
    x = np.concatenate((cls_token, x), axis=0)
    return x


def self_attention(x, p, heads, causal=False):
    def causal_mask(sequence_len):
        # Upper triangle of -inf so softmax will not let k_i attend to q_j for i > j (dimension is j*i).
        causal_mask = np.tril(np.ones((sequence_len, sequence_len), dtype=np.bool_))
        return causal_mask

    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"d_model {d} must be divisible by heads {heads}")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    head_outputs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = Q[:, cols] @ K[:, cols].T / np.sqrt(d_h)
        if causal:
            scores = np.where(causal_mask(T), -np.inf, scores)
        head_outputs.append(softmax(scores, axis=-1) @ V[:, cols])
    return np.concatenate(head_outputs, axis=-1) @ p["Wo"] + p["bo"]
