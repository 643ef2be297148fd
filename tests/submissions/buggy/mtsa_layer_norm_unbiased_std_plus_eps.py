"""Blind round 72 (b72_06, issue 38): layer_norm ported from IoTDataAtelier/mtsa
`mtsa/models/transformer_components/layer_normalization.py` (torch LayerNormalization:
`alpha * (x - mean) / (std + eps) + bias`, `x.std(dim=-1)`).

Mistakes:
1. layer_norm (lines 86-87 of the file as delivered): `x.std(ddof=1)`, torch's unbiased std,
   and `(std + eps)`, eps outside the square root. Wrong on every input: the ddof=1 factor
   sqrt((d-1)/d) with any d, the eps placement most with small variance or a large explicit eps.
The rest of the file is the reference's with the tanh GELU (accepted).

Grader: at blind time (2df48139) and now, 100/110, named on layer-norm as a pair ("2 mistakes
at once: (1) You used the unbiased variance (ddof=1, torch.var's default) ... (2) eps goes
inside the square root: (x - mean) / sqrt(var + eps), not / (std + eps)"); its first check
names part (1) alone. vit-checkpoint runs the broken layer_norm and says so. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    # LayerNormalization: alpha * (x - mean) / (std + eps) + bias
    mean = x.mean(axis=-1, keepdims=True)  # (Batch, seq_len, 1)
    std = x.std(axis=-1, keepdims=True, ddof=1)  # (Batch, seq_len, 1)
    return gamma * (x - mean) / (std + eps) + beta
