"""Blind round 63 (b63_14, issue 38): encoder_block and ANSWERS ported from flashlight/flashlight
`flashlight/fl/contrib/modules/Transformer.cpp` (Transformer::mlp, Transformer::forward with
preLN). The student's `mlp` is nested in encoder_block here: the builder replaces only the
solution's own definitions.

Mistakes:
21. encoder_block via mlp (line 106 of the file as delivered): ReLU, flashlight Transformer's mlp,
    instead of GELU. Wrong on any input.
22. ANSWERS["causal_mask"] (line 126) is "speed" where the answer is "bidirectional".

Grader: at blind time (edc81c9a) and now, 97/110, both named. Mistake 21 on encoder-block's two
checks ("The MLP uses ReLU; ViT's MLP uses GELU, x * Phi(x)"); vit-checkpoint observes
encoder_block. Mistake 22 on no-causal-mask's question ("A mask saves no compute ... an image has
no order in time: every patch may look at every patch"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'no-causal-mask': 'causal_mask:speed'}


def encoder_block(x, p, heads):
    # preLN_ == true
    def mlp(input, p):
        return (np.maximum(input @ p["W1"] + p["b1"], 0)) @ p["W2"] + p["b2"]

    h = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return h + mlp(layer_norm(h, p["ln2_g"], p["ln2_b"]), p)


ANSWERS["causal_mask"] = "speed"
