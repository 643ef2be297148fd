"""Blind round 71 (b71_13, issue 38): self_attention, encoder_block (with its `mlp`) and
vit_forward ported from sahithiankireddy14/CS156B-Chest-X-Ray-Medical-Image-Diagnosis `vit.py`
(a port of taki0112's vit-tensorflow: lucidrains' Attention, PreNorm and mlp_head with
`nn.LayerNormalization()`).

Mistakes:
1. self_attention (lines 109 and 123 of the file as delivered): `project_out = not (heads ==
   1 and dim_head == dim)`: with one head the output projection Wo, bo is skipped. Wrong with
   heads=1 only.
2. encoder_block (lines 141-142) and vit_forward (line 152): the model's norms are
   `LayerNormalization = partial(layer_norm, eps=1e-3)` (line 101), Keras' default eps, in
   PreNorm and mlp_head; layer_norm itself is right. About 1e-3 off on blocks and logits. (The
   final norm is applied to the [CLS] row only, which is equivalent.)
The delivered file's module-level `LayerNormalization` and top-level `mlp` are nested here.

Grader: at blind time (3f040026) and now, 94/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("In `self_attention`, the last step `linear(out, p['Wo'], p['bo'])` is skipped
when `heads` is 1 ... (lucidrains' `project_out = not (heads == 1 and dim_head == dim)`...)").
Mistake 2 named on vit-forward ("In `vit_forward` (at the model solution's step
`layer_norm(x, params['ln_g'], params['ln_b'])`), eps is 0.001; the student API's is 1e-06.")
and on encoder-block's visible check, as a pair: "2 mistakes at once: (1) In `encoder_block`,
eps is 0.001; the student API's is 1e-06. (2) In `encoder_block` (at the model solution's step
`layer_norm(x, p['ln1_g'], p['ln1_b'], eps)`), `eps` is a floor, `np.maximum(var, eps)`, where
the model solution adds it, `var + eps`": part (2) is WRONG (the judge's wrong hint 1): the file
has no `np.maximum`; layer_norm adds eps (line 97) and only its value is wrong. The hidden
check only observes ("except in 1 of 9 rows (row 3)"). Mended since, in the same session
(checks/stand_ins.py: a call that matches a recorded one only within the check's tolerance is
computed, for a declared helper: the grader's `self_attention` had answered the block's eps-1e-3
input with the solution's recorded eps-1e-6 answer, a mixture a floor happened to fit): both
encoder-block checks now say "In `encoder_block`, eps is 0.001; the student API's is 1e-06"
alone. Every mistake named, no hint wrong, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1',
          'no-causal-mask': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1',
          'encoder-block': 'op:constant:encoder_block:eps=0.001',
          'vit-forward': 'op:constant:vit_forward/layer_norm:eps=0.001'}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads != 0:
        raise ValueError('dim must be divisible by heads')
    dim_head = dim // heads
    project_out = not (heads == 1 and dim_head == dim)
    scale = dim_head ** -0.5

    qkv = [x @ p['Wq'] + p['bq'], x @ p['Wk'] + p['bk'], x @ p['Wv'] + p['bv']]
    # 'n (h d) -> h n d'
    q, k, v = map(lambda t: t.reshape(n, heads, dim_head).transpose(1, 0, 2), qkv)

    dots = np.einsum('h i d, h j d -> h i j', q, k) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)

    out = np.einsum('h i j, h j d -> h i d', attn, v)
    out = out.transpose(1, 0, 2).reshape(n, heads * dim_head)  # 'h n d -> n (h d)'
    if project_out:
        out = out @ p['Wo'] + p['bo']
    return out


def encoder_block(x, p, heads):
    from functools import partial

    # nn.LayerNormalization() as used by PreNorm and mlp_head
    LayerNormalization = partial(layer_norm, eps=1e-3)

    def mlp(x, p):
        return gelu(x @ p['W1'] + p['b1']) @ p['W2'] + p['b2']

    x = self_attention(LayerNormalization(x, p['ln1_g'], p['ln1_b']), p, heads) + x
    x = mlp(LayerNormalization(x, p['ln2_g'], p['ln2_b']), p) + x
    return x


def vit_forward(image, params):
    from functools import partial

    # nn.LayerNormalization() as used by PreNorm and mlp_head
    LayerNormalization = partial(layer_norm, eps=1e-3)

    x = embed_image(image, params)
    for block in params['blocks']:
        x = encoder_block(x, block, params['heads'])
    x = x[0]
    # mlp_head = Sequential([nn.LayerNormalization(), nn.Dense(units=num_classes)])
    x = LayerNormalization(x, params['ln_g'], params['ln_b'])
    return x @ params['W_head'] + params['b_head']
