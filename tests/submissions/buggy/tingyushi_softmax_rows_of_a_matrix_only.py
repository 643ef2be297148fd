"""Blind round 56 (b56_03, issue 38), recreated: softmax for the student API beside a port of
tingyushi/AI's ViT (`ViT/hyperparameters.py`: `CHANNEL = 1`, 28 x 28 gray digits; its
`Head.forward` calls torch's `softmax(temp, dim=-1)` on one (tokens, tokens) score matrix),
written in numpy for that one matrix: `rows, cols = x.shape`, the max and the sum over axis 1
put back as `(rows, 1)` columns, `axis` never read. The round's files are lost: rebuilt from
their description.

Mistakes:
1. `softmax` works only on a 2-D (rows, cols) array, along its rows, whatever `axis` says: a
   1-D vector or a 3-D stack of score matrices raises ValueError (the unpacking of `x.shape`),
   and axis=0 on a 2-D array normalises the rows instead of the columns. Right for 2-D input
   along the last axis only.

Grader: at blind time only the checklist of stable-softmax. Now named on its three value
checks as the guard error_model.guards "matrix-only" (an `x` that is not 2-D refused) with
`axis` taken as its default. (Two other 2-D-only spellings were named already: `x.max(axis=1)
[:, None]` as max and sum over axis 1, op:axis; a loop over `x.shape[0]` normalising each `x[i]`
as every axis but the first, op:all_but_first.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:guarded:softmax:matrix-only+op:default:softmax:axis-as-default'}


def softmax(x, axis=-1):
    """Row-wise softmax of a (rows, cols) score matrix, stable: the row max subtracted first."""
    rows, cols = x.shape
    e = np.exp(x - x.max(axis=1).reshape(rows, 1))
    return e / e.sum(axis=1).reshape(rows, 1)
