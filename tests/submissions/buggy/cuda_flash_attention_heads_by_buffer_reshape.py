"""Blind round 81 (b81_12, issue 38): self_attention ported from detker/CUDA-Flash-Attention
`kernels/f-attn.cu` (online-softmax tiling in blocks of 32). The delivered file's top-level
helper `_flash_head` and its block sizes are nested in self_attention here.

Mistakes:
1. self_attention (lines 127-131 of the file as delivered): heads split with
   `reshape(heads, seq_len, head_dim)`, the kernel's [head, seq, dim] buffer layout, instead of
   `reshape(T, heads, d_h).transpose(1, 0, 2)`, and merged back with `O.reshape(seq_len, d)`:
   wrong only with heads > 1. The tiling itself is right (T = 40 > 32, causal and not).

Grader: at blind time (b5c841e9) and now, 93/110. Mistake 1 named on multi-head-attention and no-causal-mask ("Your
heads come from a bare reshape, q.reshape(heads, T, d_h) ... reshape(T, heads,
d_h).transpose(1, 0, 2), and undo it the same way when merging."). why-positions loses 1 point on
its checklist, true of this mistake. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_bare_reshape',
          'no-causal-mask': 'attention_heads_bare_reshape'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the split


def self_attention(x, p, heads, causal=False):
    BLOCK_SIZE_R = 32

    BLOCK_SIZE_C = 32

    def _flash_head(q, k, v, causal):
        seq_len, head_dim = q.shape
        T_r = (seq_len + BLOCK_SIZE_R - 1) // BLOCK_SIZE_R
        T_c = (seq_len + BLOCK_SIZE_C - 1) // BLOCK_SIZE_C
        out = np.zeros((seq_len, head_dim))
        for i in range(T_r):
            r0, r1 = i * BLOCK_SIZE_R, min((i + 1) * BLOCK_SIZE_R, seq_len)
            q_buff = q[r0:r1]
            o_buff = np.zeros((r1 - r0, head_dim))
            maxes = np.full(r1 - r0, -np.inf)
            l = np.zeros(r1 - r0)
            for j in range(T_c):
                c0, c1 = j * BLOCK_SIZE_C, min((j + 1) * BLOCK_SIZE_C, seq_len)
                s_buff = q_buff @ k[c0:c1].T / math.sqrt(head_dim)  # scale
                if causal:
                    rows = np.arange(r0, r1)[:, None]
                    cols = np.arange(c0, c1)[None, :]
                    s_buff = np.where(cols > rows, -np.inf, s_buff)
                row_max = s_buff.max(axis=1)
                m_new = np.maximum(maxes, row_max)
                ok = np.isfinite(m_new)
                m_safe = np.where(ok, m_new, 0.0)
                p_ij = np.exp(s_buff - m_safe[:, None])  # local unnormalized softmax
                alpha = np.where(np.isfinite(maxes), np.exp(maxes - m_safe), 0.0)
                l = alpha * l + p_ij.sum(axis=1)
                o_buff = alpha[:, None] * o_buff + p_ij @ v[c0:c1]
                maxes = m_new
            out[r0:r1] = o_buff / l[:, None]
        return out

    seq_len, d = x.shape
    if d % heads != 0:
        raise ValueError("d % heads != 0")
    head_dim = d // heads
    # [heads, seq_len, head_dim] buffers, base_offset = HEAD_IDX * seq_len * HEAD_DIM
    Q = (x @ p["Wq"] + p["bq"]).reshape(heads, seq_len, head_dim)
    K = (x @ p["Wk"] + p["bk"]).reshape(heads, seq_len, head_dim)
    V = (x @ p["Wv"] + p["bv"]).reshape(heads, seq_len, head_dim)
    O = np.stack([_flash_head(Q[h], K[h], V[h], causal) for h in range(heads)])
    return O.reshape(seq_len, d) @ p["Wo"] + p["bo"]
