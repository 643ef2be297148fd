"""Blind round 70 (b70_08, issue 38): encoder_block and vit_forward (with its
`classification_head`) ported from junhui1997/informer_c `models/encoder.py` and
`models/classification_head.py`.

Mistakes:
1. encoder_block (lines 97-103 of the file as delivered): the Informer EncoderLayer, post-LN
   (`x = x + attention(x); y = x = norm1(x); ...; norm2(x + y)`): attention reads the
   un-normalised x and a LayerNorm follows each residual sum. Wrong on every input.
2. classification_head (line 107), called by vit_forward: the mean over all tokens, then the
   final LayerNorm, then the head, instead of the final LayerNorm over every row and then the
   [CLS] row. Wrong on every image.

Grader: at blind time (3f040026) and now, 92/110. Mistake 1 named on encoder-block ("That is a
post-LN block (LayerNorm after each residual sum ...)"); mistake 2 named on vit-forward (at blind
time "`x[0]` is read as `x.mean(axis=0)` ... the lecture runs the step on every row and then reads
row 0"; now: "In `vit_forward` (in your `classification_head`, which it calls: line ..., `x =
np.mean(x, axis=0)`), the model solution's `x[0]` is read as `x.mean(axis=0)` ... and that order is
no part of the mistake ..."). Every mistake named, so in buggy/. Judged borderline: mistake 2's
hint says "In `vit_forward`", where the delivered file has the pooling in its own helper
`classification_head` (here nested in vit_forward), which only the failure's context line names.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def encoder_block(x, p, heads):
    new_x = self_attention(x, p, heads)
    x = x + new_x
    y = x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = gelu(y @ p["W1"] + p["b1"])
    y = y @ p["W2"] + p["b2"]
    return layer_norm(x + y, p["ln2_g"], p["ln2_b"])


def vit_forward(image, params):
    def classification_head(x, g, b, W, bias):
        """ClassificationHead.forward: mean over the tokens, LayerNorm, Linear."""
        x = np.mean(x, axis=0)
        x = layer_norm(x, g, b)
        x = x @ W + bias
        return x

    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    return classification_head(x, params["ln_g"], params["ln_b"], params["W_head"], params["b_head"])
