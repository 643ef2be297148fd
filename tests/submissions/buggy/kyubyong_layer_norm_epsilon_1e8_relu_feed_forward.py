"""Blind round 58 (b58_04, issue 38): layer_norm and encoder_block ported from Kyubyong/transformer
`modules.py` (`ln(inputs, epsilon=1e-8)`, `ff` with `tf.nn.relu`). The student's `ff` (top-level
in the file) is nested in encoder_block here: the builder replaces only the solution's own
definitions.

Mistakes:
7. layer_norm (lines 80 and 83 of the file as delivered) hard-codes `epsilon = 1e-8` (Kyubyong's
   `ln` default) and ignores the `eps` argument. Wrong when eps is passed (eps=0.5, say) or on
   rows with a tiny variance (values ~1e-3 apart).
8. encoder_block (`ff`, line 118) uses ReLU (`np.maximum(..., 0)`) where ViT's MLP uses GELU.
   Wrong on every input, and so in vit_forward.

Grader: at blind time (ba46f523) and now, 96/110, both named. Mistake 7 on layer-norm's "eps
inside the square root" and random checks ("In `layer_norm`, `eps` is fixed at 1e-08 (a library's
usual default) whatever is given: use the `eps` the caller passes (its default is 1e-06)."). Mistake
8 on encoder-block's two checks ("The MLP uses ReLU; ViT's MLP uses GELU, x * Phi(x) (the tanh
approximation is fine)."); vit-forward keeps full marks around it; vit-checkpoint observes
encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-08',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis of x."""
    inputs = x
    epsilon = 1e-8
    mean = np.mean(inputs, axis=-1, keepdims=True)
    variance = np.mean((inputs - mean) ** 2, axis=-1, keepdims=True)
    normalized = (inputs - mean) / ((variance + epsilon) ** (.5))
    outputs = gamma * normalized + beta
    return outputs


def encoder_block(x, p, heads):
    """A pre-norm Transformer block (T, d) -> (T, d)."""
    def ff(inputs, p):
        outputs = np.maximum(inputs @ p["W1"] + p["b1"], 0)
        outputs = outputs @ p["W2"] + p["b2"]
        return outputs

    enc = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    enc = enc + ff(layer_norm(enc, p["ln2_g"], p["ln2_b"]), p)
    return enc
