"""Blind round 14 (b14_06, issue 38): MAE's models_mae.py forward_encoder ("cls_token =
self.cls_token + self.pos_embed[:, :1, :]") combined with HF ViTEmbeddings ("embeddings =
embeddings + self.position_embeddings").

Mistakes:
1. embed_image: the [CLS] row gets pos[0] twice (cls + pos[0], then pos added to every row):
   cls + 2 * pos[0]. Patch rows are right. Wrong on every image whenever pos[0] != 0.
2. ANSWERS: the answer is stored under the key "causal-mask" (hyphen), so ANSWERS["causal_mask"]
   stays None. The student wrote `ANSWERS["causal-mask"] = "bidirectional"`; the builder replaces
   only the solution's own lines, so it is written below as the solution's
   ANSWERS["causal_mask"] line set to what `ANSWERS.update(...)` returns (None) after adding the
   hyphenated key: ANSWERS ends as the student's does.

Grader: the blind hint on "RGB images, random parameters" was WRONG, and it is still given now:
"Your `embed_image` is right when H == W, wrong for a 4 x 6 image: use H and W each where they
belong. Here it returns the expected values except in 1 of 7 rows (row 0)." (only_square_images,
an observation: the code has nothing to do with H and W; a square image with random parameters
is wrong too; the row-0 sentence is true, as is the hidden case's some_rows_wrong "except in 1
of 4 rows (row 0)"). The misspelt key is observed only as "ANSWERS['causal_mask'] is not answered
yet". Nothing named.
Since session 14 the misspelt key is a named mistake (answer_under_misspelt_key).
Since session 15 the [CLS] row's position added twice is named (op:first_row_to_all, pos[0] added
once more to what the concatenation puts first): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:first_row_to_all:embed_image:params['pos'][0]-twice",
          'no-causal-mask': 'answer_under_misspelt_key'}


def embed_image(image, params):
    """Token sequence, after MAE (forward_encoder) and HF ViTEmbeddings."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = params["cls"] + params["pos"][0]        # MAE: cls_token + pos_embed[:, :1, :]
    tokens = np.concatenate([cls[None, :], tokens], axis=0)
    return tokens + params["pos"]                 # HF: embeddings + position_embeddings


# the student's line: ANSWERS["causal-mask"] = "bidirectional" (see the docstring)
ANSWERS["causal_mask"] = ANSWERS.update({"causal-mask": "bidirectional"})
