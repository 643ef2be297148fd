"""Blind round 53 (b53_03, issue 38): softmax ported from zhaoqi94/The-Boomsday-Project,
utils/activation.py (`softmax(x, axis=-1)` whose body uses `axis=-1` throughout);
attention_scores from an `_estimate_attention_pairs` (find_string id 56182882227: `if
attention_type == "full": return seq_len * (seq_len + 1) // 2`).

Mistakes:
1. softmax ignores `axis` and always normalises over the last axis: wrong for any other axis on
   input of 2 or more dimensions (on (3, 5) with axis=0 the columns do not sum to 1). The default
   is right, so attention is unaffected.
2. `attention_scores(T)` returns `T*(T+1)//2`, the causal triangle, where the API wants `T**2`
   (19503 instead of 38809 for 197 tokens); only T = 1 agrees.

Grader: at blind time (0ec6739e) and now, both named: M1 on stable-softmax ("In `softmax`, `axis` is
taken as its default, -1, whatever is given."), M2 on attention-cost ("In `attention_scores`, `T *
T` is counted as `T * (T + 1) // 2`, a causal mask's triangle: each token against itself and those
before it; the lecture's map has no mask: it scores every token against every token, itself
included, `T * T`."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's checklist on the same mistake


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    seq_len = num_tokens
    return seq_len * (seq_len + 1) // 2


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    x = x - np.max(x,axis=-1,keepdims=True)
    x = np.exp(x)
    x /= np.sum(x,axis=-1,keepdims=True)
    return x
