"""Blind round 32 (b32_10, issue 38): Stanford CS224n (Winter 2017) assignment 1, q1_softmax.py
("Compute the softmax function for each row of the input x ... You are allowed to modify x
in-place"), as softmax.

Mistakes:
1. softmax ignores `axis`: for any input with ndim > 1 it normalises over axis 1: wrong for
   axis=0 on 2-D and for 3-D input with axis=-1 (so self_attention's (heads, T, T) scores are
   normalised over the queries: knock-on effects downstream).
2. softmax changes its input in place (`x -= tmp`): the caller's array becomes x - max.

Grader: at blind time (a78aae9) and now, 2 named on every stable-softmax check ("Change no array
`softmax` is given in place", changes_input_in_place); 1 is never told: no hint mentions the
axis. The other exercises keep their points (the grader's softmax standing in); vit-checkpoint
observes the broken softmax. In unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place'}


def softmax(x, axis=-1):
    """Compute the softmax function for each row of the input x.

    Arguments:
    x -- A N dimensional vector or M x N dimensional numpy matrix.

    Return:
    x -- You are allowed to modify x in-place
    """
    orig_shape = x.shape

    if len(x.shape) > 1:
        # Matrix
        tmp = np.max(x, axis=1, keepdims=True)
        x -= tmp
        x = np.exp(x)
        tmp = np.sum(x, axis=1, keepdims=True)
        x /= tmp
    else:
        # Vector
        tmp = np.max(x)
        x -= tmp
        x = np.exp(x)
        tmp = np.sum(x)
        x /= tmp

    assert x.shape == orig_shape
    return x
