"""Blind round 22 (b22_07, issue 38): embed_image and softmax ported from
facebookresearch/convit (convit.py: `x = x + self.pos_embed` on the patches, then the
cls_tokens concatenated; softmax with dim=-1 hard-wired).

Mistakes:
1. embed_image adds pos[1:] to the patches before [CLS] is prepended: [CLS] gets no position.
2. softmax ignores its axis argument (dim=-1 hard-wired).

Grader: at blind time and now (the same commit), both named: the positions added before [CLS] is
prepended, and the axis hard-wired to the default (the probability property's verdict,
softmax_wrong_axis, in ALIASES); vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on it


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos_embed = params["pos"][1:]
    x = x + pos_embed
    cls_tokens = params["cls"][None, :]
    x = np.concatenate((cls_tokens, x), axis=0)
    return x


def softmax(x, axis=-1):
    x = np.asarray(x)
    x = np.exp(x - x.max(-1, keepdims=True))
    return x / x.sum(-1, keepdims=True)
