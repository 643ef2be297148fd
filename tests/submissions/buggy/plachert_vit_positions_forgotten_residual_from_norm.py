"""Blind round 74 (b74_12, issue 38): embed_image and encoder_block ported from
plachert/vision-transformer `src/model/architectures/visual_transformer.py` (the EncoderBlock
normalises in place before the skip; "TODO: Add positional encoding").

Mistakes:
1. embed_image (lines 70-73 of the file as delivered): [CLS] prepended but params["pos"] never
   added. Wrong on every image.
2. encoder_block (line 127): the first residual adds attention to the normalised sequence
   (`sequence = layer_norm(x); sequence = sequence + self_attention(sequence)`), as in the
   source, instead of x + attn(LN(x)). Wrong on every block; the second half is right.
The delivered file's top-level helpers class_token and feedforward are nested in embed_image and
encoder_block here.

Grader: at blind time (997839b5) and now, 90/110. Mistake 1 named on cls-and-positions ("You
forgot the positions ... Add params["pos"] ... after prepending [CLS]"), with why-positions'
checklist ("A bag of tiles"); mistake 2 on encoder-block ("the residual ... adds back
`layer_norm(x, ...)`, the step's output, instead of `x` itself"); vit-checkpoint observes both.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_forgotten',
          'why-positions': 'bag_of_tiles',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'}


def embed_image(image, params):
    def class_token(sequence, token):
        return np.concatenate([token[None, :], sequence], axis=0)

    sequence = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    sequence = class_token(sequence, params["cls"])
    return sequence


def encoder_block(x, p, heads):
    def feedforward(sequence, p):
        return gelu(sequence @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    sequence = layer_norm(x, p["ln1_g"], p["ln1_b"])  # pre-norm
    sequence = sequence + self_attention(sequence, p, heads)  # 1st skip connection
    sequence_norm = layer_norm(sequence, p["ln2_g"], p["ln2_b"])  # pre-norm
    sequence = sequence + feedforward(sequence_norm, p)  # 2nd skip connection
    return sequence
