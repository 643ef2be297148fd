"""Blind round 29 (b29_06, issue 38): ported from openai/gpt-2 src/model.py (norm, split_states,
merge_states, split_heads, merge_heads, attention_mask, mask_attn_weights, multihead_attn, and
its tanh gelu, accepted: CORRECT). The student's top-level helpers `norm` (in layer_norm) and
`split_states`, `merge_states`, `attention_mask` (in self_attention) are nested here: the
builder replaces only the solution's own definitions.

Mistakes:
1. layer_norm delegates to the port of `norm(x, scope, *, axis=-1, epsilon=1e-5)` without
   passing eps: eps is always 1e-5. Shows when a caller passes eps, or on rows of small variance.
2. self_attention: multihead_attn always calls mask_attn_weights (GPT-2 is always causal); the
   causal flag is never read. Wrong for causal=False whenever T > 1.

Grader: at blind time and now, named: "`eps` is fixed at 1e-05 (a library's usual default)
whatever is given" on layer-norm; "`causal_mask(...) if causal else None` is always
`causal_mask(...)`" on no-causal-mask (whose default check gets GPT's mask checklist,
gpt_causal_mask) and "You applied GPT's causal mask although causal is False"
(attention_causal) on multi-head-attention; why-positions runs the student's always-causal
self_attention (attention_not_equivariant); vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/. Since blind round 39 no-causal-mask's check of causal=False lists
attention_causal too: the mask is told in the same words there as on multi-head-attention.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
CORRECT = ('gelu',)  # the tanh approximation, accepted: keeps every point
ALIASES = ('gpt_causal_mask',)  # no-causal-mask's default check: the property's checklist


def layer_norm(x, gamma, beta, eps=1e-6):
    def norm(x, g, b, axis=-1, epsilon=1e-5):
        """Normalize to mean = 0, std = 1, then do a diagonal affine transform."""
        u = np.mean(x, axis=axis, keepdims=True)
        s = np.mean(np.square(x - u), axis=axis, keepdims=True)
        x = (x - u) * (1.0 / np.sqrt(s + epsilon))
        x = x * g + b
        return x

    return norm(x, gamma, beta)


def self_attention(x, p, heads, causal=False):
    """model.py attn(), one sequence (no batch axis)."""
    def split_states(x, n):
        """Reshape the last dimension of x into [n, x.shape[-1]/n]."""
        *start, m = x.shape
        return np.reshape(x, start + [n, m // n])

    def merge_states(x):
        """Smash the last two dimensions of x into a single dimension."""
        *start, a, b = x.shape
        return np.reshape(x, start + [a * b])

    def attention_mask(nd, ns):
        """1's in the lower triangle, counting from the lower right corner."""
        i = np.arange(nd)[:, None]
        j = np.arange(ns)
        m = i >= j - ns + nd
        return m.astype(float)

    n_state = x.shape[-1]
    if n_state % heads != 0:
        raise ValueError(f"n_state {n_state} is not divisible by n_head {heads}")

    def split_heads(t):
        return np.transpose(split_states(t, heads), [1, 0, 2])

    def merge_heads(t):
        return merge_states(np.transpose(t, [1, 0, 2]))

    def mask_attn_weights(w):
        _, nd, ns = w.shape
        b = attention_mask(nd, ns).reshape(1, nd, ns)
        w = w * b - 1e10 * (1 - b)
        return w

    def multihead_attn(q, k, v):
        w = q @ np.transpose(k, [0, 2, 1])
        w = w * (1.0 / np.sqrt(v.shape[-1]))
        w = mask_attn_weights(w)
        w = softmax(w)
        a = w @ v
        return a

    w_attn = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)    # c_attn
    b_attn = np.concatenate([p["bq"], p["bk"], p["bv"]])
    c = x @ w_attn + b_attn
    q, k, v = map(split_heads, np.split(c, 3, axis=-1))
    a = multihead_attn(q, k, v)
    a = merge_heads(a)
    return a @ p["Wo"] + p["bo"]                                       # c_proj


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * np.power(x, 3))))
