"""Blind round 80 (b80_04, issue 38): layer_norm and encoder_block ported from
Mountagha/fromZeroToHero `Lecture6/model.py` (nanoGPT: new_gelu, F.layer_norm's eps). The
delivered file's top-level helpers `new_gelu` and `mlp` are nested in encoder_block here.

Mistakes:
1. encoder_block, through new_gelu (line 15 of the file as delivered): the source's own typo
   `x + 0.044715 + x**3` (a `+` where a `*` belongs). Wrong on every input (and in vit_forward).
2. layer_norm (line 18): default `eps=1e-5` (F.layer_norm's), not 1e-6. Wrong on a
   near-constant row or small variance only; an explicit `eps=` is honoured.

Grader: at blind time (a4b8673f) and now, 96/110. Mistake 2 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06"). Mistake 1 only observed at blind time:
encoder-block got its checklist ("Check the pre-LN order ... gelu(h @ W1 + b1) @ W2 + b2") and
"this failure is in `encoder_block`'s own code or in `mlp` or `new_gelu`", never the `+` for `*`
in the cubic term.
Since a2650478 (error_model/alternatives.py's `activation_typo`: an accepted GELU with one binary
operator typed as another, tried only where no other rewrite reproduces the values) mistake 1 is
named on encoder-block's two checks ("the activation is GELU's tanh approximation with `0.044715
+ x ** 3` where `0.044715 * x ** 3` belongs (a `+` typed for a `*`)"): every mistake named, so in
buggy/; vit-checkpoint observes the broken encoder_block (not in EXPECT).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'encoder-block': ('op:activation_typo:encoder_block/mlp:'
                            'act=gelu_tanh.0.044715x3-times-as-plus')}


def layer_norm(x, gamma, beta, eps=1e-5):
    """ LayerNorm like F.layer_norm(input, weight.shape, weight, bias, 1e-5) """
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def encoder_block(x, p, heads):
    def new_gelu(x):
        """
        Implementations of the GELU activation function currently in Google BERT repo (identical to OpenAI GPT).
        References: Gaussian Error Linear Units (GELU) paper: https://arxiv.org.org/abs/1606.08415
        """
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 + np.power(x, 3.0))))

    def mlp(x, p):
        x = x @ p["W1"] + p["b1"]
        x = new_gelu(x)
        return x @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
