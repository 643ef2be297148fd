"""Blind round 20 (b20_10, issue 38): self_attention, encoder_block and softmax ported from
ggerganov/ggml's GPT-2 example and llama.cpp (examples/gpt-2/main.cpp: one helper per ggml op,
tensors in ggml's ne order, KQ_scale = 1/sqrt(n_embd/n_head), the inpL / inpFF residual names,
ggml_soft_max_inplace). The student's top-level helpers `ggml_mul_mat_t` and `ggml_add` are nested
in self_attention and encoder_block here: the builder replaces only the solution's own
definitions.

Mistakes:
1. self_attention splits the heads with `reshape(T, n_embd_head, n_head)` (ggml's ne0, ne1 order
   of [n_embd_head, n_head, N] written into a numpy shape the wrong way round) and merges them
   back the same way: each head takes every n_head-th column instead of a block of d_h columns:
   wrong only with heads > 1.
2. encoder_block's second residual adds the MLP output to the block input inpL instead of inpFF
   (the attention residual's output): x + mlp(ln2(x + attn)).
3. softmax, ported from ggml_soft_max_inplace, subtracts, exponentiates and divides in the
   caller's array: the input is overwritten (the returned values are right).

Grader: at blind time and now, the heads (attention_heads_interleaved) and the residual ("adds
back `x` as it was before `x = x + self_attention(...)`", op:stale) named; the in-place softmax
was only observed until session 13 ("Change no array `softmax` is given in place: compute into a new one (`x = x - m`,
not `x -= m`)", which states the mechanism, but with no misconception name); no-causal-mask
observes the interleaved heads ("only in 1 of 5 rows (row 0)"); vit-checkpoint observes the
broken functions.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place',
          'multi-head-attention': 'attention_heads_interleaved',
          'encoder-block': 'op:stale:encoder_block:x-before-update'}


def self_attention(x, p, heads, causal=False):
    def ggml_mul_mat_t(x, w):
        return x @ w

    def ggml_add(a, b):
        return a + b

    N, n_embd = x.shape
    n_head = heads
    if n_embd % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")
    n_embd_head = n_embd // n_head
    KQ_scale = 1.0 / math.sqrt(float(n_embd) / n_head)

    Qcur = ggml_add(ggml_mul_mat_t(x, p["Wq"]), p["bq"])
    Kcur = ggml_add(ggml_mul_mat_t(x, p["Wk"]), p["bk"])
    Vcur = ggml_add(ggml_mul_mat_t(x, p["Wv"]), p["bv"])

    # [n_embd_head, n_head, N] -> permute(0, 2, 1, 3): per head, (N, n_embd_head)
    Q = Qcur.reshape(N, n_embd_head, n_head).transpose(2, 0, 1)
    K = Kcur.reshape(N, n_embd_head, n_head).transpose(2, 0, 1)
    V = Vcur.reshape(N, n_embd_head, n_head).transpose(2, 0, 1)

    KQ = np.matmul(Q, K.transpose(0, 2, 1)) * KQ_scale
    if causal:
        KQ = KQ + np.triu(np.full((N, N), -np.inf), 1)      # ggml_diag_mask_inf(n_past = 0)
    KQ_soft_max = softmax(KQ, axis=-1)
    KQV = np.matmul(KQ_soft_max, V)                           # (n_head, N, n_embd_head)
    cur = KQV.transpose(1, 2, 0).reshape(N, n_embd)           # ggml_cpy to [n_embd, N]
    return ggml_add(ggml_mul_mat_t(cur, p["Wo"]), p["bo"])


def encoder_block(x, p, heads):
    def ggml_mul_mat_t(x, w):
        return x @ w

    def ggml_add(a, b):
        return a + b

    inpL = x
    cur = layer_norm(inpL, p["ln1_g"], p["ln1_b"])
    cur = self_attention(cur, p, heads)
    cur = ggml_add(cur, inpL)
    inpFF = cur
    cur = layer_norm(inpFF, p["ln2_g"], p["ln2_b"])
    cur = ggml_add(ggml_mul_mat_t(cur, p["W1"]), p["b1"])
    cur = gelu(cur)
    cur = ggml_add(ggml_mul_mat_t(cur, p["W2"]), p["b2"])
    return ggml_add(cur, inpL)


def softmax(x, axis=-1):
    x = np.asarray(x)
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= np.sum(x, axis=axis, keepdims=True)
    return x
