"""Blind round 19 (b19_08, issue 38): layer_norm and embed_image ported from Harvard NLP's "The
Annotated Transformer" (`LayerNorm` with a_2 / b_2, `Embeddings.forward` scaled by
sqrt(d_model)).

Mistakes:
1. layer_norm is `a_2 * (x - mean) / (std + eps) + b_2` with torch's unbiased std
   (`x.std(-1, ddof=1)`): (a) ddof=1 where the biased variance belongs, (b) eps added to the std
   outside the square root.
2. embed_image multiplies the patch tokens by `math.sqrt(d_model)` before [CLS] and positions.

Grader: at blind time and now, all named: layer_norm_unbiased alone on the small examples, both
at once on the eps check (layer_norm_unbiased+layer_norm_eps_outside, and as the generated pair on
the random check), and the tokens scaled by sqrt(d). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside',
          'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d'}


def embed_image(image, params):
    d_model = params["W_e"].shape[1]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) * math.sqrt(d_model)
    x = np.concatenate([params["cls"].reshape(1, d_model), x], axis=0)
    return x + params["pos"]


def layer_norm(x, gamma, beta, eps=1e-6):
    a_2, b_2 = gamma, beta
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, ddof=1, keepdims=True)
    return a_2 * (x - mean) / (std + eps) + b_2
