"""Blind round 28 (b28_04, issue 38): embed_image and encoder_block ported from OpenNMT-py
(onmt/modules/embeddings.py PositionalEncoding.forward: emb = emb * math.sqrt(self.dim), then
+ pe; onmt/encoders/transformer.py TransformerEncoderLayer; onmt/modules/position_ffn.py
PositionwiseFeedForward: w_2(relu(w_1(layer_norm(x)))) + x). The student's top-level helper
`_positionwise_feed_forward` is nested in encoder_block here: the builder replaces only the
solution's own definitions.

Mistakes:
1. embed_image multiplies the [CLS] + patch rows by sqrt(d) before adding the positions (the
   Transformer-NMT embedding scale): wrong on every input.
2. encoder_block's MLP uses ReLU, not GELU.

Grader: at blind time and now, (2) named: the ReLU MLP on encoder-block; (1) not named: only the
sequence-order checklist ("[CLS] (row 0) followed by the N patch tokens, then + pos") on
cls-and-positions, whose hidden random check has no hint line; vit-checkpoint observes the broken
functions.
Since session 15 the tokens scaled before the positions are named (op:scaled_by_width, `x * math.sqrt(d)
+ params['pos']`): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:scaled_by_width:embed_image:x-times-sqrt-d-before-params['pos']",
          'encoder-block': 'encoder_relu'}


def embed_image(image, params):
    """Embeddings.forward: source 'words' (patch tokens, [CLS] first), then PositionalEncoding."""
    emb = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    emb = np.vstack([params["cls"], emb])
    dim = emb.shape[-1]
    emb = emb * math.sqrt(dim)
    emb = emb + params["pos"][: emb.shape[0]]
    return emb


def encoder_block(x, p, heads):
    """TransformerEncoderLayer.forward: input_norm, self_attn, dropout + residual, feed_forward."""
    def _positionwise_feed_forward(x, p):
        """PositionwiseFeedForward.forward (pre-norm, residual inside)."""
        inter = np.maximum(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"], 0.0)
        output = inter @ p["W2"] + p["b2"]
        return output + x

    input_norm = layer_norm(x, p["ln1_g"], p["ln1_b"])
    context = self_attention(input_norm, p, heads)
    out = context + x
    return _positionwise_feed_forward(out, p)
