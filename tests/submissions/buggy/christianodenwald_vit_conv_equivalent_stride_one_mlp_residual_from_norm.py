"""Blind round 72 (b72_13, issue 38): conv_equivalent and encoder_block (with its
`feed_forward` and `pre_norm`) ported from christianodenwald/ViT `vit.py` (lucidrains'
vit-pytorch style: PreNorm, FeedForward, Attention, `pool = 'cls'`).

Mistakes:
1. conv_equivalent (lines 70-73 of the file as delivered): returns `(P, 1)`, stride 1,
   overlapping CNN windows. Always wrong.
2. encoder_block (lines 134-135): `x = layer_norm(x, ln2)` then `x = feed_forward(x) + x`: the
   MLP residual adds the normalised x, not the pre-norm x. Wrong on every input.
The delivered file's top-level helpers `feed_forward` and `pre_norm` are nested here.

Grader: at blind time (2df48139) and now, 97/110. Mistake 1 named on kernel-stride ("Stride 1
slides the kernel one pixel at a time: overlapping windows, as a CNN does. ViT patches tile, so
the kernel moves by a whole patch: stride P."); mistake 2 named on encoder-block ("In
`encoder_block`, the residual of `x + mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps), p,
activation)` adds back `layer_norm(x, p['ln2_g'], p['ln2_b'], eps)`, the step's output, instead
of `x` itself."). vit-checkpoint runs the broken encoder_block and says so. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2'}


def conv_equivalent(P):
    kernel_size = P
    stride = 1
    return (kernel_size, stride)


def encoder_block(x, p, heads):
    def feed_forward(x, p):
        return gelu(x @ p['W1'] + p['b1']) @ p['W2'] + p['b2']

    def pre_norm(x, fn, gamma, beta):
        return fn(layer_norm(x, gamma, beta))

    x = pre_norm(x, lambda t: self_attention(t, p, heads), p['ln1_g'], p['ln1_b']) + x
    x = layer_norm(x, p['ln2_g'], p['ln2_b'])
    x = feed_forward(x, p) + x
    return x
