"""Blind round 13 (b13_11, issue 38): MAE's `x + pos_embed[:, 1:, :]` ported as pos[:-1].

Mistake: embed_image adds pos[:-1] (rows 0..N-1) to the patch tokens instead of pos[1:]; [CLS]
gets pos[0] (right).

Grader: only observed ("returns the expected values only in 1 of 5 rows (row 0); the others
differ", some_rows_wrong).
Named since (the error model: a table read one row late).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:one_row_late:embed_image:params['pos']-one-row-late"}


def embed_image(image, params):
    """MAE forward_encoder: embed patches, add pos w/o cls token, then append cls token."""
    pos = params["pos"]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # add pos embed w/o cls token
    x = x + pos[:-1, :]
    # append cls token
    cls_token = params["cls"] + pos[:1, :]
    return np.concatenate([cls_token, x], axis=0)
