"""Blind round 68 (b68_13, issue 38): encoder_block ported from
NeuralClassifier/mini-language-model `transformer/transformer.py` (Transformer.forward: attention
and feed-forward, each followed by Add & Norm) and its FeedForward (linear -> ReLU -> linear,
transformer/README.md).

Mistakes:
23. encoder_block (lines 179 and 183 of the file as delivered): post-LN, `layer_norm(x +
    attn_out)` and `layer_norm(x + ffn_out)`, instead of pre-LN; self-attention reads the
    un-normalised x. Wrong on any input.
24. encoder_block (line 182): the MLP uses ReLU, `np.maximum(0, ...)`, instead of GELU. Wrong on
    any input with negative pre-activations.

Grader: at blind time (766069c5) and now, 99/110, both named on encoder-block's two checks ("2
mistakes at once: (1) That is a post-LN block (LayerNorm after each residual sum, as in the 2017
Transformer). ViT is pre-LN ... (2) The MLP uses ReLU; ViT's MLP uses GELU"); vit-checkpoint
observes the broken `encoder_block`. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln+encoder_relu'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    # Self-attention with residual connection and layer norm
    attn_out = self_attention(x, p, heads)
    x = layer_norm(x + attn_out, p["ln1_g"], p["ln1_b"])

    # Feed-forward network with residual connection and layer norm
    ffn_out = np.maximum(0, x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]  # linear -> ReLU -> linear
    x = layer_norm(x + ffn_out, p["ln2_g"], p["ln2_b"])
    return x
