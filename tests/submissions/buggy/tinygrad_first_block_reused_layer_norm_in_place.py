"""Blind round 4 (b4_10, issue 38), tinygrad style (small callable classes), with two mistakes:
vit_forward runs len(blocks) passes but applies blocks[0] in every one (right with one block);
layer_norm normalises its input in place (x -= mean; x /= std), so the caller's array is
overwritten (the returned values are right). The first block is named; the in-place mistake was
said exactly, but until session 13 as an observation with no misconception name ("`layer_norm` changed `x` in
place"), which an EXPECT of buggy/ could not name. (The port's
module-level _Block class is nested in vit_forward here: a fixture replaces only the solution's
names.)
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop:vit_forward:block-first',
          'layer-norm': 'changes_input_in_place'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis, in place to save memory as tinygrad's examples do."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x -= mean
    x /= np.sqrt(var + eps)
    return x * gamma + beta


def vit_forward(image, params):
    """ViT.forward: embed, self.tbs in sequence, encoder_norm, head on the [CLS] token."""
    class _Block:
        def __init__(self, p, heads):
            self.p, self.heads = p, heads

        def __call__(self, x):
            return encoder_block(x, self.p, self.heads)

    tbs = [_Block(b, params["heads"]) for b in params["blocks"]]
    x = embed_image(image, params)
    for i in range(len(tbs)):
        x = tbs[0](x)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
