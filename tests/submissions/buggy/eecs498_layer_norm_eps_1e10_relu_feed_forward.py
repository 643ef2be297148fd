"""Blind round 57 (b57_09, issue 38): chizkidd/EECS498-Deep-Learning-for-Computer-Vision
`A5/transformers.py` (UMich EECS 498-007 A5: LayerNormalization(epsilon=1e-10),
FeedForwardBlock, EncoderBlock).

Mistakes:
15. `layer_norm` keeps the assignment's `LayerNormalization(epsilon=1e-10)` default instead of
    the API's `eps=1e-6`: visible on rows of small variance (values ~1e-3 apart: error 0.04;
    near-constant rows: O(1)); explicit `eps=` is right.
16. `encoder_block`'s MLP (helper `feedforward_block`) is the assignment's `linear - relu -
    linear`: ReLU instead of GELU, on any input with negative hidden pre-activations.

Grader: at blind time (84f876fc) #15 partly named: "In `layer_norm`, eps is 1e-12; the student
API's is 1e-06.", a value the code does not have (the error model's 1e-12 and 0 give the
outputs 1e-10 gives). Now named as far as the calls tell it (error_model/constants.py: "eps is a
value below about 1e-09 (...)"), and the report says the student's own number: "eps is 1e-10
(`eps=1e-10` in your code); the student API's is 1e-06." #16 named at blind time and now
("The MLP uses ReLU; ViT's MLP uses GELU"). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-10):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x_norm = (x - mean) / np.sqrt(var + eps)
    return gamma * x_norm + beta


def encoder_block(x, p, heads):
    def relu(x):
        return np.maximum(x, 0)

    def feedforward_block(x, p):
        return relu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    out1 = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    out2 = out1 + feedforward_block(layer_norm(out1, p["ln2_g"], p["ln2_b"]), p)
    return out2
