"""Blind round 10 (b10_10, issue 38): patch loops with OpenCV's BGR->RGB conversion (image[..., ::-1]),
a count of ordered pairs of different tokens, and big_vision's head (`x[:, 0]` for pool_type
'tok') without its batch axis written as x[:1].

Mistakes:
1. patchify reverses the channel order. Right on gray images, wrong on RGB.
2. attention_scores = T * (T - 1). Every T.
3. vit_forward: logits of shape (1, classes) from x[:1].

Grader: the pair count is named (op:triangle); the channels, observed in the blind round
(only_one_channel, plus "a term added to every row alike, such as a bias or a position" on the
ramp image, which is not the cause; no bias is guessed now, patchify takes none), are named
since (inputs.channels_reversed); the kept axis is observed (one_axis_off: "a batch axis kept
from batched code?").
Since session 14 the slice is named (results.row_as_slice: `x[0]` read with its axis kept, as
`x[:1]` reads it): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:channels_reversed:patchify:image-channels-reversed',
          'attention-cost': 'op:triangle:attention_scores:T-squared-minus-one',
          'vit-forward': 'op:row_as_slice:vit_forward:x[0]-as-slice'}


def patchify(image, P):
    """Cut the picture into P x P tiles, row by row (OpenCV-style loops)."""
    image = _as_hwc(image)[..., ::-1]          # BGR -> RGB, as after cv2.imread
    H, W, C = image.shape
    num_patches(H, W, P)
    patches = []
    for y in range(0, H, P):
        for x in range(0, W, P):
            patches.append(image[y:y + P, x:x + P, :].flatten())
    return np.stack(patches)


def attention_scores(num_tokens):
    """Every token is compared with every other token: ordered pairs (i, j), i != j."""
    return num_tokens * (num_tokens - 1)


def vit_forward(image, params):
    """big_vision ViT with pool_type='tok' for one image."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    encoded = layer_norm(x, params["ln_g"], params["ln_b"])
    head_input = encoded[:1]                    # the [CLS] token
    return head_input @ params["W_head"] + params["b_head"]
