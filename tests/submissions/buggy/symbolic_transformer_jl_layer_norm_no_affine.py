"""Blind round 67 (b67_13, issue 38): layer_norm ported from
prior-technology/SymbolicTransformer `src/LayerNormalization.jl` (LN(v, eps), TransformerLens'
LayerNormPre). The student's top-level `_mu` and `_center` are nested in layer_norm here: the
builder replaces only the solution's own definitions.

Mistakes:
19. layer_norm (line 145 of the file as delivered): no affine part, `return top * scale`: gamma
    and beta ignored. Wrong with gamma != 1 or beta != 0.

Grader: at blind time (d3fd340b) and now, 101/110, named on layer-norm's two checks ("After
normalising, scale and shift: * gamma + beta."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_no_affine'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LN(v, eps): top .* scale, with scale = (mu((v .- mu(v)).^2) + eps)^(-1/2)."""
    def _mu(v):
        "Expectation or Mean of a vector (over the last axis)"
        return np.sum(v, axis=-1, keepdims=True) / v.shape[-1]

    def _center(x):
        "Center vector to have mean 0"
        return x - _mu(x)

    v = np.asarray(x, dtype=float)
    top = _center(v)
    scale = (_mu(_center(v) ** 2) + eps) ** (-0.5)
    return top * scale
