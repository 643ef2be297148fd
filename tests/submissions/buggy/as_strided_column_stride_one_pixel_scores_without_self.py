"""Blind round 16 (b16_07, issue 38): patchify ported from a numpy blog post on as_strided patch
extraction; attention_scores from a StackOverflow answer ("a token needs no score with itself").

Mistakes:
1. patchify gives the patch grid's column axis the stride of one pixel instead of P pixels, so
   patch (r, j) starts at column j instead of j * P: along a row the patches overlap.
2. attention_scores returns T * (T - 1) instead of T ** 2.

Grader: at blind time and now, both are named (the W chunks overlapping, one element apart; the
count leaving each token's score with itself out). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:chunks_overlap:patchify:W-chunks-overlap',
          'attention-cost': 'op:triangle:attention_scores:T-squared-minus-one'}


def attention_scores(num_tokens):
    """Every token against every other token."""
    return num_tokens * (num_tokens - 1)


def patchify(image, P):
    """as_strided patch extraction (numpy blog): a zero-copy (gh, gw, P, P, C) view."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    row, col, ch = image.strides
    view = np.lib.stride_tricks.as_strided(
        image, shape=(H // P, W // P, P, P, C),
        strides=(P * row, col, row, col, ch), writeable=False)
    return view.reshape(-1, P * P * C)
