"""Blind round 51 (b51_01, issue 38): num_tokens after a PyTorch `PatchEmbedding(in_channels,
embed_dim, patch_size, use_cls_token=False, use_pos_embedding=False, num_patches=None)` (a
'''Vision transformer.''' module), its default carried over; softmax ported from
Jobhdez/haskell-math, src/NeuralNetworks.hs (`softmax vec = map (/ sumExps) (map exp vec)`).

Mistakes:
1. `num_tokens(H, W, P, cls_token=False)`: the default is False (from `use_cls_token=False`),
   the API's is True. num_tokens(224, 224, 16) returns 196 (ref 197); passing cls_token
   explicitly, either way, is right.
2. softmax has no max subtraction: `np.exp(x) / sum`. Right on moderate inputs; near 1000 exp
   overflows to inf and the result is nan (softmax([1000, 1001, 1002]) is [nan, nan, nan]).

Grader: at blind time (b53db91d) and now, both named: M1 on token-count ("In `num_tokens`,
`cls_token` defaults to False (`cls_token=False` in the signature): a call that leaves it out gets
cls_token=False, where the lecture's default is True; a call that names it is right."), M2 on
stable-softmax ("exp overflowed: exp(1000) is inf in floating point, and inf / inf is nan. Subtract
the maximum along the axis first: ..."). M1 also costs attention-cost 2 points, at blind time and
now: its check "a smaller patch versus a larger one, with your num_tokens and attention_scores"
runs the student's num_tokens and observes it ("This check tests your `num_tokens` and
`attention_scores` together. Your `attention_scores` returns the expected values here; your
`num_tokens` returns other values than the expected ones ... fix it there first, as its mistake may
be what fails here."): an observation of the same mistake, so attention-cost is not in EXPECT (it
uses num_tokens, so it may lose points). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'stable-softmax': 'softmax_without_max'}


def num_tokens(H, W, P, cls_token=False):
    n = num_patches(H, W, P)
    if cls_token:
        n = n + 1
    return n


def softmax(x, axis=-1):
    exp_vec = np.exp(np.asarray(x, dtype=float))
    sum_exps = np.sum(exp_vec, axis=axis, keepdims=True)
    return exp_vec / sum_exps
