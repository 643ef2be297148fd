"""Blind round 66 (b66_09, issue 38): embed_image and ANSWERS
ported from danbev/learning-ai `notes/vit.md`.

Mistakes:
18. embed_image (lines 120-121 of the file as delivered): as the note orders it (C_i = E_i + P_i,
    then [CLS] gets its own position), the patches get `pos[0:N]` and [CLS] gets `pos[N]`, not
    `pos[0]` and `pos[1:]`. Wrong on any input.
19. ANSWERS["positions"] (line 204): "cls" instead of "permutation".

Grader: at blind time (f4776223) and now, 96/110. Mistake 19 named on why-positions ("[CLS] is
always row 0; it needs no position to be found"); mistake 18 not told: cls-and-positions' three
checks give only the checklist ("The sequence is [CLS] (row 0) followed by the N patch tokens,
then + pos"). Not every mistake named, so in unnamed/. Now named (session 32,
error_model/rolled_rows.py): cls-and-positions' three checks say the rows of `params['pos']` are
taken rolled by one row (row 0 gets its last row, row i its row i - 1: the patches get rows 0..N-1
and [CLS] row N); every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:rows_rolled:embed_image:params['pos']-rolled-down",
          'why-positions': 'positions:cls'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer.

    notes/vit.md: each flattened patch V goes to E = VW + b; the positional encodings are
    added, C_i = E_i + P_i; then the extra class patch embedding is prepended, and it "gets its
    own unique positional encoding reflecting its special role" (the extra, last row of pos).
    """
    E = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n = E.shape[0]
    pos = params["pos"]
    C = E + pos[:n]                                   # C_i = E_i + P_i
    cls = params["cls"] + pos[n]                      # the class token's own encoding
    return np.concatenate([cls[None, :], C], axis=0)


ANSWERS["positions"] = "cls"
