"""Blind round 19 (b19_12, issue 38): self_attention, gelu and encoder_block ported from
ml-explore/mlx-examples (clip/model.py `Attention`, `create_additive_causal_mask`,
`gelu_fast_approx`).

Mistakes:
1. self_attention's additive causal mask is built with `indices[:, None] <= indices[None]`: the
   diagonal is hidden too, and row 0, hiding every key, attends uniformly; MLX's is `<` (right
   with causal=False). The mask itself, added as `mask * -1e9`, is no mistake: with `<` it equals
   the -inf fill (every row keeps a key).
2. gelu is `x * sigmoid(1.702 * x)`, the quick GELU. encoder_block calls it; encoder_block itself
   is the student's, the solution's in all but spelling, listed here only so that its exercise may
   lose points (no `uses:` line names gelu).
The student's create_additive_causal_mask (top-level in the file) is nested in self_attention
here: the builder replaces only the solution's own definitions.

Grader: at blind time, the quick GELU named; the mask named as "2 mistakes at once": (1) the mask
one diagonal off (k=-1), right, and (2) "the mask is added, `scores + np.where(mask, 0.0, -1e9)`,
where `np.where(mask, scores, -np.inf)` belongs", WRONG: the additive -1e9 is not a mistake (the
`<=` alone makes row 0 hide every key; with `<` the file equals the reference).
Since the fix made in main in the same session, nothing is named on no-causal-mask (hence None);
at 53af965, the commit this fixture was ported on, the wrong second cause is still told, so this
fixture's test fails there until that fix is merged.
Since the twelfth session the triangle one diagonal off is named alone (the additive -1e9 changes
nothing alone: not told): wholly named, moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1+~op:infinity_added:self_attention/attention:minus-inf-as-added-1e9',
          'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def self_attention(x, p, heads, causal=False):
    """mlx-examples' CLIP Attention; create_additive_causal_mask (top-level in the student's
    file) nested here."""
    def create_additive_causal_mask(N, dtype=np.float64):
        indices = np.arange(N)
        mask = indices[:, None] <= indices[None]
        return mask.astype(dtype) * -1e9

    L, D = x.shape
    num_heads = heads
    if D % num_heads != 0:
        raise ValueError("The input feature dimensions should be divisible by the number of heads")
    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]
    queries = queries.reshape(L, num_heads, -1).transpose(1, 0, 2)
    keys = keys.reshape(L, num_heads, -1).transpose(1, 2, 0)
    values = values.reshape(L, num_heads, -1).transpose(1, 0, 2)
    scale = math.sqrt(1 / queries.shape[-1])
    scores = (queries * scale) @ keys
    if causal:
        scores = scores + create_additive_causal_mask(L, scores.dtype)
    scores = softmax(scores, axis=-1)
    values_hat = (scores @ values).transpose(1, 0, 2).reshape(L, -1)
    return values_hat @ p["Wo"] + p["bo"]


def gelu(x):
    # nn.gelu_fast_approx
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))


def encoder_block(x, p, heads):
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = y @ p["W1"] + p["b1"]
    y = gelu(y)
    y = y @ p["W2"] + p["b2"]
    return x + y
