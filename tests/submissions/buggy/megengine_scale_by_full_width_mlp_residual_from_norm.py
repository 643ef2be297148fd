"""Blind round 21 (b21_04, issue 38): self_attention and encoder_block ported from MegEngine's
basedet transformer (basedet/layers/transformer.py: `class Attention(M.Module)` with proj_q,
proj_k, proj_v, `self.scale` set in `__init__`, F.matmul, F.softmax, F.transpose). The
student's top-level `F` (a class of static helpers) and `Attention` are nested in the functions
that use them here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention scales by `dim ** -0.5` (the model width) instead of `head_dim ** -0.5`: the
   same with one head, too small a scale with several.
2. encoder_block takes the MLP residual from the normalised tensor (`x = h + mlp(h)` with
   `h = norm2(x)`) instead of from the block's running x.

Grader: at blind time and now, both named: the scores scaled by sqrt(d) (attention_scale_d on
multi-head-attention, the generated scale=sqrt(d) on no-causal-mask) and the second residual
taken from the LayerNorm's output; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2'}


def self_attention(x, p, heads, causal=False):
    class F:
        @staticmethod
        def matmul(a, b):
            return np.matmul(a, b)

        @staticmethod
        def transpose(x, pattern):
            return np.transpose(x, pattern)

        @staticmethod
        def softmax(x, axis=-1):
            x = np.asarray(x)
            offset = np.max(x, axis=axis, keepdims=True)
            e = np.exp(x - offset)
            return e / np.sum(e, axis=axis, keepdims=True)

        @staticmethod
        def concat(xs, axis=0):
            return np.concatenate(xs, axis=axis)

        @staticmethod
        def linear(x, w, b):
            return np.matmul(x, w) + b

    class Attention:
        def __init__(self, dim, num_heads, p):
            self.num_heads = num_heads
            head_dim = dim // num_heads
            if head_dim * num_heads != dim:
                raise ValueError("dim must be divisible by num_heads")
            self.head_dim = head_dim
            self.scale = dim ** -0.5
            self.p = p

        def forward(self, x, causal=False):
            L, C = x.shape
            p = self.p
            q = F.linear(x, p["Wq"], p["bq"]).reshape(L, self.num_heads, self.head_dim)
            k = F.linear(x, p["Wk"], p["bk"]).reshape(L, self.num_heads, self.head_dim)
            v = F.linear(x, p["Wv"], p["bv"]).reshape(L, self.num_heads, self.head_dim)
            q = F.transpose(q, (1, 0, 2))
            k = F.transpose(k, (1, 2, 0))
            v = F.transpose(v, (1, 0, 2))
            attn = F.matmul(q, k) * self.scale
            if causal:
                future = np.triu(np.ones((L, L), dtype=bool), k=1)
                attn = np.where(future, -np.inf, attn)
            attn = F.softmax(attn, axis=-1)
            out = F.transpose(F.matmul(attn, v), (1, 0, 2)).reshape(L, C)
            return F.linear(out, p["Wo"], p["bo"])

    return Attention(x.shape[-1], heads, p).forward(x, causal=causal)


def encoder_block(x, p, heads):
    class F:
        @staticmethod
        def matmul(a, b):
            return np.matmul(a, b)

        @staticmethod
        def transpose(x, pattern):
            return np.transpose(x, pattern)

        @staticmethod
        def softmax(x, axis=-1):
            x = np.asarray(x)
            offset = np.max(x, axis=axis, keepdims=True)
            e = np.exp(x - offset)
            return e / np.sum(e, axis=axis, keepdims=True)

        @staticmethod
        def concat(xs, axis=0):
            return np.concatenate(xs, axis=axis)

        @staticmethod
        def linear(x, w, b):
            return np.matmul(x, w) + b

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = h + F.linear(gelu(F.linear(h, p["W1"], p["b1"])), p["W2"], p["b2"])
    return x
