"""Blind round 80 (b80_05, issue 38): self_attention ported from kpe/params-flow
`params_flow/activations.py` (BERT-style `transpose_for_scores`). The writer's key said correct;
the judge found the mistake below, true of the code.

Mistakes:
1. self_attention (line 134 of the file as delivered): BERT's causal adder
   `(1 - tril) * -10000` added to the scores instead of -inf. Scores of size ~10000 (inputs far
   from zero) leak through the mask: with x = N(0, 1) * 100, heads=2, causal=True the output is
   off by up to 407. Right on inputs of ordinary size, and with causal=False.

Grader: at blind time (a4b8673f) and now, 108/110, named on no-causal-mask ("the hidden scores get
-10000 added ... -10000 is not low enough, scores of size ~10000 (inputs far from zero) leak
through the mask"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:shallow_fill:self_attention/attention:minus-inf-as-added-1e4'}


def self_attention(x, p, heads, causal=False):
    seq_len, hidden = x.shape
    if hidden % heads != 0:
        raise ValueError("hidden size {} not divisible by num_heads {}".format(hidden, heads))
    size_per_head = hidden // heads

    def transpose_for_scores(t):
        t = np.reshape(t, [seq_len, heads, size_per_head])
        return np.transpose(t, [1, 0, 2])                    # [H, T, S]

    q = transpose_for_scores(np.matmul(x, p["Wq"]) + p["bq"])
    k = transpose_for_scores(np.matmul(x, p["Wk"]) + p["bk"])
    v = transpose_for_scores(np.matmul(x, p["Wv"]) + p["bv"])

    attention_scores_ = np.matmul(q, np.transpose(k, [0, 2, 1]))
    attention_scores_ = attention_scores_ / np.sqrt(float(size_per_head))
    if causal:
        attention_mask = np.tril(np.ones([seq_len, seq_len]))
        adder = (1.0 - attention_mask) * -10000.0
        attention_scores_ = attention_scores_ + adder
    attention_probs = softmax(attention_scores_, axis=-1)
    context = np.matmul(attention_probs, v)                  # [H, T, S]
    context = np.reshape(np.transpose(context, [1, 0, 2]), [seq_len, hidden])
    return np.matmul(context, p["Wo"]) + p["bo"]
