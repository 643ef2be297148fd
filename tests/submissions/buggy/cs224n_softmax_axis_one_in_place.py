"""Blind round 32 (b32_10, issue 38): Stanford CS224n (Winter 2017) assignment 1, q1_softmax.py
("Compute the softmax function for each row of the input x ... You are allowed to modify x
in-place"), as softmax.

Mistakes:
1. softmax ignores `axis`: for any input with ndim > 1 it normalises over axis 1: wrong for
   axis=0 on 2-D and for 3-D input with axis=-1 (so self_attention's (heads, T, T) scores are
   normalised over the queries: knock-on effects downstream).
2. softmax changes its input in place (`x -= tmp`): the caller's array becomes x - max.

Grader: at blind time (a78aae9), 2 named on every stable-softmax check ("Change no array
`softmax` is given in place", changes_input_in_place); 1 never told: every check's first
failing case is a right value with the input changed, and the in-place name stopped the
search for the value's cause. Since this commit a check whose first failure is only the change
in place takes the first wrong value among the cases it ran as its verdict (its line says the
input was changed too), and the error model names the axis: "`axis` is never read: `x` with
two axes or more is worked over axis 1 whatever `axis` is ..." on the hidden check (3-D
inputs); the small-examples check, 1-D and 2-D inputs only, where axis 1 is the last, names it
as "`axis` is taken as its default, -1, whatever is given" (true there); the near-1000 check,
all right values, still names the change in place. The other
exercises keep their points (the grader's softmax standing in); vit-checkpoint observes the
broken softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:rows_or_whole:softmax:axis-1-unless-1d'}
ALIASES = ('changes_input_in_place',)  # the file's other mistake, named on the same exercise


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
