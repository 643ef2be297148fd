"""Blind round 53 (b53_05, issue 38): a torch `Layernorm(x, axis, eps)` written with `mean` /
`mean2` loops and `var = mean2 - mean*mean` (find_string id 45064988911), and a numpy attention
model whose `forward` ends with `probs = softmax(logits); return probs` (find_string id
8930877718).

Mistakes:
1. layer_norm computes the variance in one pass as E[x^2] - E[x]^2. This loses precision when
   the values are far from 0: around 1e6 the output is off by about 6e-5 relative, around 1e8
   it is meaningless (and can be NaN when the variance goes negative). Near 0 it matches; the
   rows are flattened with `reshape(-1, d)`, so batched input works.
2. vit_forward returns `softmax(logits)`, the class probabilities, not the logits the API
   wants. This shows on every input.

Grader: at blind time (0ec6739e) mistake 1 fails only "adding a constant to a token changes
nothing" (0 / 1), whose failure text says "your values on every call here are those of a
variance taken in one pass, mean(x**2) - mean(x)**2, whose two terms far from zero are huge and
nearly equal, so their difference loses its digits" (layer_norm_one_pass_variance), its hint
only the spec's [checklist] ("... and that they are computed in float64 (x + 1e7 in float32
loses the digits that differ)", which the code, `np.asarray(x, dtype=float)`, already does);
mistake 2 named: "In `vit_forward`, the result `linear(x[0], params['W_head'],
params['b_head'])` goes through a softmax over its last axis (a head built with
activation='softmax') before it is returned".
Now named: mistake 1 as a named mistake in the property's own words (properties.NAMED): "Your
`layer_norm` takes the variance in one pass, mean(x**2) - mean(x)**2 (E[x^2] - E[x]^2): on every
call here it returned what LayerNorm with its variance taken so returns. ... Subtract the mean
first: mean((x - mean)**2), or np.var."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_one_pass_variance',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    x = np.asarray(x, dtype=float)
    shape = x.shape
    x = x.reshape(-1, shape[-1])
    bs, dim = x.shape

    mean = np.zeros(bs)
    mean2 = np.zeros(bs)
    var = np.zeros(bs)
    y = np.empty_like(x)
    for i in range(bs):
        for j in range(dim):
            mean[i] += x[i, j]
            mean2[i] += x[i, j] * x[i, j]
        mean[i] /= dim
        mean2[i] /= dim
        var[i] = mean2[i] - mean[i] * mean[i]

        for j in range(dim):
            y[i, j] = (x[i, j] - mean[i]) / np.sqrt(var[i] + eps)
    return (y * gamma + beta).reshape(shape)


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = x[0] @ params["W_head"] + params["b_head"]

    probs = softmax(logits)
    return probs
