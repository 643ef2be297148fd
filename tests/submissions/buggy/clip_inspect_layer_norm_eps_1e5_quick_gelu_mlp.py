"""Blind round 72 (b72_15, issue 38): layer_norm and encoder_block (with its `mlp`,
`QuickGELU` and `sigmoid`) ported from ptmorris03/clip-inspect `clip_inspect/model.py` (CLIP's
`QuickGELU(input) = input * sigmoid(1.702 * input)`, hk.LayerNorm, MLP c_fc -> QuickGELU ->
c_proj).

Mistakes:
1. layer_norm (line 81 of the file as delivered): the default `eps=1e-5`, haiku's and torch's.
   Wrong only when eps is not passed, most on low-variance input.
2. encoder_block, through its mlp (line 114): QuickGELU, x * sigmoid(1.702 x), instead of the
   erf (or tanh) GELU (at most about 0.02 apart). Wrong on every input.
The delivered file's top-level helpers `sigmoid`, `QuickGELU` and `mlp` are nested here, and
its module-level `from functools import partial` is imported inside encoder_block.

Grader: at blind time (2df48139) and now, 96/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06."); mistake 2 named on encoder-block ("In
`encoder_block` (at the model solution's step `mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps),
p, activation)`), the activation is CLIP's quick GELU, x * sigmoid(1.702 x) where the student
API's activation is GELU"). vit-checkpoint runs the broken encoder_block and says so. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def layer_norm(x, gamma, beta, eps=1e-5):
    # hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return (x - mean) * (1.0 / np.sqrt(variance + eps)) * gamma + beta


def encoder_block(x, p, heads):
    from functools import partial

    def sigmoid(x):
        return 1.0 / (1.0 + np.exp(-x))

    def QuickGELU(input):
        return input * sigmoid(1.702 * input)

    def mlp(input, p):
        # c_fc -> QuickGELU -> c_proj
        out = QuickGELU(input @ p["W1"] + p["b1"])
        return out @ p["W2"] + p["b2"]

    ln_1 = partial(layer_norm, gamma=p["ln1_g"], beta=p["ln1_b"])
    ln_2 = partial(layer_norm, gamma=p["ln2_g"], beta=p["ln2_b"])
    x = x + self_attention(ln_1(x), p, heads)
    x = x + mlp(ln_2(x), p)
    return x
