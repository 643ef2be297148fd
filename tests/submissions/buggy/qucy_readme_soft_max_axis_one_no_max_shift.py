"""Blind round 42 (b42_10, issue 38): softmax from Qucy/ViT-VisionTransformer's README sample
`soft_max(z)` (`np.exp(z) / np.expand_dims(np.sum(t, axis=1), 1)`, nested here in softmax), and
vit_forward from its vit.py VisionTransformer.call, ported correctly (CORRECT).

Mistakes:
1. softmax always normalises over axis 1 and ignores `axis`: a 1-D input raises AxisError,
   axis=0 and 3-D inputs are wrong (2-D with axis=-1 happens to be right).
2. exp is taken without subtracting the max: inputs near 1000 overflow to nan.

Grader: at blind time (e77cb46) and now, both named together on stable-softmax's small
examples, overflow and hidden checks ("over axis 1 instead of the axis `axis` it is given" and
"the max subtraction ... is left out"); the sum-to-1 property gets a true observation (its
AxisError); vit-checkpoint observes softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=1+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'}
CORRECT = ('vit_forward',)  # VisionTransformer.call, ported right


def softmax(x, axis=-1):
    """The README's soft_max for the attention weights."""
    def soft_max(z):
        t = np.exp(z)
        a = np.exp(z) / np.expand_dims(np.sum(t, axis=1), 1)
        return a

    return soft_max(np.asarray(x, dtype=float))


def vit_forward(image, params):
    """VisionTransformer.call for one image."""
    # patching + class token + position embedding
    x = embed_image(image, params)
    # transformer encoder
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # layer normalization
    x = layer_norm(x, params["ln_g"], params["ln_b"], eps=1e-6)
    # extract class token
    x = x[0, :]
    # dense layer
    return x @ params["W_head"] + params["b_head"]
