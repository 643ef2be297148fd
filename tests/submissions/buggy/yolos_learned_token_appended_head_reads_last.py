"""Blind round 24 (b24_13, issue 38): embed_image and vit_forward ported from hustvl's YOLOS /
Hugging Face `YolosEmbeddings` (the learned detection tokens concatenated after the patches, the
head reading `sequence_output[:, -num_detection_tokens:]`).

Mistakes:
1. embed_image appends [CLS] as the last row instead of prepending it.
2. vit_forward's head reads the last row, `x[-1]`, instead of row 0.

Grader: at blind time and now, both named: [CLS] appended as the last row on cls-and-positions,
and the head reading the last token on vit-forward (the hidden check in the error model's words,
`x[0]` reading index -1); vit-checkpoint observes the broken functions. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'vit-forward': 'vit_last_row'}


def embed_image(image, params):
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    det_tokens = params["cls"][None, :]                  # the learned token(s)
    embeddings = np.concatenate([embeddings, det_tokens], axis=0)
    return embeddings + params["pos"]


def vit_forward(image, params):
    num_detection_tokens = 1
    sequence_output = embed_image(image, params)
    for block in params["blocks"]:
        sequence_output = encoder_block(sequence_output, block, params["heads"])
    sequence_output = layer_norm(sequence_output, params["ln_g"], params["ln_b"])
    token = sequence_output[-num_detection_tokens:][0]
    return token @ params["W_head"] + params["b_head"]
