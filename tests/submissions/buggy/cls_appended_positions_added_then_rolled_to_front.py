"""[CLS] appended after the patches, the positions added, then the sequence rolled so that [CLS]
comes first (`np.roll(tokens, 1, axis=0)`): [CLS] is row 0 but carries the last position row,
pos[N], and the patches carry pos[0..N-1]. Written for session 32 to show rolled_rows.py's rule
on another style than b66_09's (the rows moved after the sum, not the table sliced).

Grader: cls-and-positions names it: the rows of `params['pos']` are taken rolled by one row, row 0
gets its last row and row i its row i - 1.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:rows_rolled:embed_image:params['pos']-rolled-down"}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([tokens, params["cls"][None, :]], axis=0)  # [CLS] at the end
    tokens = tokens + params["pos"]
    return np.roll(tokens, 1, axis=0)  # bring [CLS] to the front
