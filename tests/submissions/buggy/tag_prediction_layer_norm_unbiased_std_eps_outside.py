"""Blind round 68 (b68_03, issue 38): layer_norm and gelu ported from ssong18/tag-prediction
`models/modules.py` (LayerNorm.forward, the Annotated Transformer's; GELU, the tanh form): gelu
right (the tanh approximation is accepted).

Mistakes:
5. layer_norm (line 139 of the file as delivered): `std = x.std(-1, ddof=1, keepdims=True)`,
   torch's `x.std(-1)`, the unbiased std instead of the biased variance (ddof=0). Wrong on any
   input (more so the smaller d).
6. layer_norm (line 140): `(x - mean) / (std + eps)`: eps added to the std, outside the square
   root. Shows most on near-constant rows.

Grader: at blind time (766069c5) and now, 100/110, both named on layer-norm's three failed checks
("You used the unbiased variance (ddof=1, torch.var's default)"; "2 mistakes at once: (1) ...
(2) eps goes inside the square root: (x - mean) / sqrt(var + eps), not / (std + eps)"; the hidden
check says the same pair in the model solution's words); vit-checkpoint observes the broken
`layer_norm`. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}
CORRECT = ('gelu',)


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    # a_2 = gamma, b_2 = beta (LayerNorm module from models/modules.py)
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, ddof=1, keepdims=True)  # torch x.std(-1) is the unbiased one
    return gamma * (x - mean) / (std + eps) + beta


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * np.power(x, 3))))
