"""Blind round 53 (b53_08, issue 38): embed_image and num_tokens ported from a
`PositionalEmbedding.forward` (find_string id 21283573278: `x = torch.cat((x, cls_token), dim=1);
x = x + self.positional_embedding`, with `number_of_embeddings + 1` positions).

Mistakes:
1. embed_image appends [CLS] as the last row where the API wants row 0: same shape, so positions
   go to the wrong rows and row 0 is a patch. vit_forward reads a patch token as [CLS].
2. num_tokens always adds 1 and ignores `cls_token`: num_tokens(4, 4, 2, cls_token=False) is 5,
   not 4. cls_token=True and the default are right; sizes that don't tile still raise.

Grader: at blind time (0ec6739e) and now, both named: M1 on cls-and-positions ("You appended [CLS]
as the last row. The course prepends it: [CLS] is row 0, the row the classifier head reads, and the
patches follow in raster order."), M2 on token-count ("With cls_token=False there is no [CLS] row:
the sequence is just the N patches." and, on the hidden check, "No [CLS] token when cls_token is
false."); vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'token-count': 'cls_always'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    number_of_embeddings = num_patches(H, W, P)
    return number_of_embeddings + 1


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"][None, :]
    x = np.concatenate((x, cls_token), axis=0)
    x = x + params["pos"]
    return x
