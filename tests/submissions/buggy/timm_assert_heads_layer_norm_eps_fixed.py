"""Blind round 9 (b9_06, issue 38): a submission ported from timm (pytorch-image-models)
timm/models/vision_transformer.py.

Mistakes:
1. self_attention: timm's `assert dim % num_heads == 0, 'dim should be divisible by
   num_heads'` kept, so a bad head count raises AssertionError, not the ValueError the API
   asks for. Shows only when heads does not divide d.
   Sources: timm Attention.__init__; the same assert in minGPT/nanoGPT CausalSelfAttention;
   Hugging Face ViTSelfAttention raises ValueError instead.
2. layer_norm: eps hard-coded to 1e-6 (timm's `norm_layer = partial(nn.LayerNorm, eps=1e-6)`),
   the eps argument is ignored. Shows only when a caller passes another eps (and the
   variance is not much larger than that eps).
   Sources: timm VisionTransformer `norm_layer or partial(nn.LayerNorm, eps=1e-6)`;
   THUDM/SwissArmyTransformer PR #40 "fix layernorm eps".

Grader: the eps is named (op:default: "`eps` is taken as its default, 1e-06, whatever is given").
The assert is only observed, exactly ("Your code refused the input with `assert`
(AssertionError), where ValueError is asked for").
Since session 15 an `assert` where ValueError is asked for is a named mistake (refused_with_assert: the worker sees the AssertionError): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-default',
          'multi-head-attention': 'refused_with_assert'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """nn.LayerNorm(eps=1e-6) over the last axis."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-6) * gamma + beta    # partial(nn.LayerNorm, eps=1e-6)


def self_attention(x, p, heads, causal=False):
    """timm Attention: fused qkv, (N, C) -> (N, C)."""
    N, C = x.shape
    assert C % heads == 0, "dim should be divisible by num_heads"
    head_dim = C // heads
    scale = head_dim ** -0.5
    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)        # nn.Linear(dim, dim * 3)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ w_qkv + b_qkv).reshape(N, 3, heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]                                        # self.proj
