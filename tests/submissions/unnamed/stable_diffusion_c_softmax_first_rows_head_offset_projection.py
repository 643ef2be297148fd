"""Blind round 64 (b64_02, issue 38): softmax and self_attention ported from
Mwauracollins/stable-diffusion-c `src/utils/softmax.h` (softmax_forward) and `src/cpu/attention.c`
(self_attention_forward's loops).

Mistakes:
3. softmax (lines 135-137 of the file as delivered): softmax_forward(logits, T) assumes a square
   T x T buffer, so `for i in range(T)` walks only the first T rows of the flattened array and
   any later row is returned raw. Wrong on batched input with more than one leading slice and on
   2-D input with more rows than columns (axis=0 on a wide matrix likewise).
4. self_attention (line 211): the output projection copies attention.c's
   `head_offset = h * d_k + (c % d_k)` and sums only `heads` terms,
   `head_output[t, head_offset] * Wo[head_offset, c]`, instead of `head_output[t, :] @ Wo[:, c]`.
   Wrong on any input.

Grader: at blind time (0cd43d22) and now, 92/110, neither named. Mistake 3: stable-softmax's
property and hidden checks give their checklists ("Along `axis` the values are probabilities
... Each is exp(x - max) divided by the sum ..."); nothing says rows past the first T are
skipped. Mistake 4: multi-head-attention's three checks give their checklists ("... then @ Wo +
bo"), no-causal-mask's two causal checks the observation "Your `self_attention` also loses
points in multi-head-attention: fix it there first", vit-checkpoint observes self_attention;
nothing points to the output projection. No wrong hint. A hint would say that the softmax
loops over `range(T)` rows where the array has more (loop over every row), and that the output
projection reads one column of the heads' output per head, `head_offset`, where each output
column sums over all d. In unnamed/; EXPECT holds what must hold today: the points lost, no
cause named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': None,
          'multi-head-attention': None,
          'no-causal-mask': None}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Port of softmax_forward(float* logits, int T): walk the buffer row by row, rows of length T,
    subtract the row max, exponentiate, normalise.
    """
    logits = np.array(x, dtype=float)          # copy: the C version works in place
    moved = axis not in (-1, logits.ndim - 1)
    if moved:
        logits = np.moveaxis(logits, axis, -1).copy()
    T = logits.shape[-1]
    flat = logits.reshape(-1)
    for i in range(T):
        if i * T >= flat.size:                 # 1-D input: only one row
            break
        row = flat[i * T:(i + 1) * T]
        max_logit = row[0]
        for j in range(1, T):
            if row[j] > max_logit:
                max_logit = row[j]
        # Subtract max_logit and exponentiate
        row[:] = np.exp(row - max_logit)
        sum_exp = row.sum()
        # Normalize to get probabilities
        row /= sum_exp
    out = flat.reshape(logits.shape)
    if moved:
        out = np.moveaxis(out, -1, axis)
    return out


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    Port of self_attention_forward: scores per head and token pair, a max-shifted softmax per
    query row, the weighted sum of V per head, then the output linear map with the head offsets.
    """
    x = np.asarray(x, dtype=float)
    T, C = x.shape
    n_heads = heads
    if C % n_heads != 0:
        raise ValueError(f"width {C} is not divisible by {n_heads} heads")
    d_k = C // n_heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    o_w, o_b = p["Wo"], p["bo"]

    head_output = np.zeros((T, C))
    for h in range(n_heads):
        for t1 in range(T):
            max_score = -np.inf
            scores = np.zeros(T)
            for t2 in range(T):
                # attention scores Q.K^T
                score = 0.0
                for d in range(d_k):
                    score += Q[t1, h * d_k + d] * K[t2, h * d_k + d]
                # scale the score by the square root of d_k
                score /= math.sqrt(d_k)
                if causal and t2 > t1:
                    score = -np.inf
                max_score = max(max_score, score)
                scores[t2] = score
            attn_weights = np.exp(scores - max_score)
            attn_weights /= attn_weights.sum()
            # weighted sum of V for the output of this head
            for d in range(d_k):
                head_output[t1, h * d_k + d] = np.dot(attn_weights, V[:, h * d_k + d])

    # Concat all the heads' outputs and apply the linear transform
    output = np.zeros((T, C))
    for t in range(T):
        for c in range(C):
            output[t, c] = o_b[c]
            for h in range(n_heads):
                head_offset = h * d_k + (c % d_k)  # Ensure proper head offset mapping
                output[t, c] += head_output[t, head_offset] * o_w[head_offset, c]
    return output
