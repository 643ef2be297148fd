"""Blind round 73 (b73_09, issue 38): self_attention ported from gabar92/elte_advanced_deep_learning
`assignments/02_multi-head_self-attention/README.md`.

Mistakes:
1. self_attention (multi_head_attention, line 147 of the file as delivered):
   `scale = 1.0 / np.sqrt(hidden_dim)`, d where d_h belongs. Wrong with heads > 1 only.
2. self_attention (multi_head_attention, line 145): `assert` where ValueError is asked for when
   heads does not divide d (AssertionError).
The delivered file's top-level helpers create_qkv, scaled_dot_product_attention and
multi_head_attention are nested in self_attention here.

Grader: at blind time (6245b55a) and now, 94/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)") and on no-causal-mask ("the scores
are divided by sqrt(d), the model width, instead of sqrt(d_h)"); mistake 2 on multi-head-attention
("refused the input with `assert` ... write `raise ValueError(...)`"); vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}
ALIASES = ('refused_with_assert',)  # mistake 2, named on the same exercise


def self_attention(x, p, heads, causal=False):
    def create_qkv(
        inputs: np.ndarray,
        weights_q: np.ndarray,
        weights_k: np.ndarray,
        weights_v: np.ndarray,
        bias_q: np.ndarray,
        bias_k: np.ndarray,
        bias_v: np.ndarray,
    ) -> tuple:
        """
        Compute queries, keys, and values from the input tensor.
        """
        Q = inputs @ weights_q + bias_q
        K = inputs @ weights_k + bias_k
        V = inputs @ weights_v + bias_v
        return Q, K, V

    def scaled_dot_product_attention(
        Q: np.ndarray,
        K: np.ndarray,
        V: np.ndarray,
        scale: float,
        mask: np.ndarray = None,
    ) -> np.ndarray:
        """
        Compute the scaled dot product attention.
        """
        scores = Q @ np.swapaxes(K, -1, -2) * scale
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = softmax(scores, axis=-1)
        output = weights @ V
        return output

    def multi_head_attention(
        inputs: np.ndarray,
        p: dict,
        num_heads: int,
        causal: bool = False,
    ) -> np.ndarray:
        """
        Compute multi-head self-attention.
        """
        seq_len, hidden_dim = inputs.shape
        assert hidden_dim % num_heads == 0, "hidden_dim must be divisible by num_heads"
        head_dim = hidden_dim // num_heads
        scale = 1.0 / np.sqrt(hidden_dim)

        Q, K, V = create_qkv(inputs, p["Wq"], p["Wk"], p["Wv"], p["bq"], p["bk"], p["bv"])

        # split into heads: (num_heads, seq_len, head_dim)
        Q = Q.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        K = K.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)
        V = V.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)

        mask = np.tril(np.ones((seq_len, seq_len), dtype=bool)) if causal else None
        heads = scaled_dot_product_attention(Q, K, V, scale, mask)

        # concatenate heads
        output = heads.transpose(1, 0, 2).reshape(seq_len, hidden_dim)
        return output @ p["Wo"] + p["bo"]

    return multi_head_attention(x, p, heads, causal=causal)
