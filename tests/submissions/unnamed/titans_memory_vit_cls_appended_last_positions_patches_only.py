"""Blind round 45 (b45_05, issue 38): embed_image ported from MemoryViT.forward in a titans_pytorch
NeuralMemory ViT training script (`x += self.pos_embedding[:, :n]`, then
`torch.cat((x, cls_tokens), dim=1)`, the [CLS] output read at `x[:, -1]`).

Mistakes:
1. embed_image appends [CLS] as the last row (row N) instead of prepending it as row 0.
2. embed_image adds the positions `pos[:N]` to the patch rows only, before [CLS] is appended, so
   [CLS] gets no position (the lecture adds pos[0] to [CLS] and pos[1:] to the patches).

Grader: at blind time (fe6e9573) and now, both are only observed: cls-and-positions' failing checks
carry the `[checklist]` "The sequence is [CLS] (row 0) followed by the N patch tokens, then + pos"
(true), no named hint. Not every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': None}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4)."""
    # 1. Patchify + patch embedding
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n, _ = x.shape
    # 2. Add Positional Embedding
    x += params["pos"][:n]
    # 3. CLS token (placed at the END so it sees the full context)
    cls_tokens = params["cls"][None, :]
    x = np.concatenate((x, cls_tokens), axis=0)
    return x
