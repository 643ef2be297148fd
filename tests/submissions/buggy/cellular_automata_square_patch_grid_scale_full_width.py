"""Blind round 80 (b80_13, issue 38): patchify and self_attention ported from
RubensZimbres/Repo-2021 `Neural_Cellular_Automata_Google/Cellular_Automata_Kernel.py`.

Mistakes:
1. patchify (lines 33-34 of the file as delivered): grid side `g = int(np.sqrt(N))` used for
   both axes. Wrong on non-square images only: raises ValueError on a valid image when N is not
   a perfect square (8 x 12, P = 4), scrambles the patches when it is (8 x 32, P = 4).
2. self_attention (line 94): scores scaled by 1/sqrt(d) instead of 1/sqrt(d_h). Wrong with
   heads > 1 only.

Grader: at blind time (a4b8673f) and now, 90/110. Mistake 1 named on patchify ("the patch grid is
taken as square (at your line `g = int(np.sqrt(N))`) ... `image.reshape(H // P, P, W // P, P,
C)`"); mistake 2 named on multi-head-attention and no-causal-mask ("divided by sqrt(d) ...
instead of sqrt(d_h)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:grid_square:patchify:grid-taken-as-square',
          'multi-head-attention': 'attention_scale_d'}
ALIASES = ('op:constant:self_attention/attention:scale=sqrt(d)',)


def patchify(image, P):
    inp = np.array(image).astype(np.float64)
    if inp.ndim == 2:
        inp = inp.reshape(inp.shape[0], inp.shape[1], 1)
    if inp.ndim != 3:
        raise ValueError('image must be 2-D or 3-D')
    H, W, C = inp.shape
    N = num_patches(H, W, P)
    g = int(np.sqrt(N))       # patches per side
    grid = inp.reshape(g, P, g, P, C).transpose(0, 2, 1, 3, 4)
    print_shapes = False
    if print_shapes:
        print('input shape ->', inp.shape)
        print('grid shape ->', grid.shape)
    return grid.reshape(N, P * P * C)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError('heads must divide the model width')
    dh = d // heads
    q = (x @ p['Wq'] + p['bq']).reshape(T, heads, dh).transpose(1, 0, 2)
    k = (x @ p['Wk'] + p['bk']).reshape(T, heads, dh).transpose(1, 0, 2)
    v = (x @ p['Wv'] + p['bv']).reshape(T, heads, dh).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
    if causal:
        scores = np.where(np.tril(np.ones((T, T))) == 1, scores, -np.inf)
    out = softmax(scores) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p['Wo'] + p['bo']
