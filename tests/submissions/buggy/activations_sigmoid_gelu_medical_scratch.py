"""Blind round 67 (b67_10, issue 38): gelu and ANSWERS ported from
5hogun-Ormerod/Machine-learning-C-sharp `NeuralNetworks/Modules/Activations.py`.

encoder_block, the solution's own, is listed too: it calls gelu, and encoder-block's `uses:`
names encoder_block only, so the exercise may lose points for it.

Mistakes:
16. gelu (line 171 of the file as delivered): the sigmoid approximation `x * sigmoid(1.702 x)`,
    neither the erf GELU nor the tanh form: off by up to about 0.02.
17. ANSWERS["medical"] (line 207): "scratch" instead of "pretrained".

Grader: at blind time (d3fd340b) and now, 97/110, both named. Mistake 16 on encoder-block's two
checks ("In `encoder_block` (at the model solution's step `mlp(...)`), the activation is CLIP's
quick GELU, x * sigmoid(1.702 x)": said at the step that calls `gelu`, and no exercise checks
`gelu` alone); mistake 17 on pretrained-or-scratch ("A from-scratch ViT needs a large image
set"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'pretrained-or-scratch': 'medical:scratch'}


def gelu(x):
    """GELU, see https://arxiv.org/abs/1606.08415.

    The first approximation has more operations than the second:
    0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))
    """
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


ANSWERS["medical"] = "scratch"
