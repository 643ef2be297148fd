"""Blind round 45 (b45_05, issue 38): embed_image ported from MemoryViT.forward in a titans_pytorch
NeuralMemory ViT training script (`x += self.pos_embedding[:, :n]`, then
`torch.cat((x, cls_tokens), dim=1)`, the [CLS] output read at `x[:, -1]`).

Mistakes:
1. embed_image appends [CLS] as the last row (row N) instead of prepending it as row 0.
2. embed_image adds the positions `pos[:N]` to the patch rows only, before [CLS] is appended, so
   [CLS] gets no position (the lecture adds pos[0] to [CLS] and pos[1:] to the patches).

Grader: at blind time (fe6e9573) both were only observed: cls-and-positions' failing checks
carried the `[checklist]` "The sequence is [CLS] (row 0) followed by the N patch tokens, then + pos"
(true), no named hint. Now named as the pair on the worked example, RGB and hidden checks: "2
mistakes at once: (1) ... `x + params['pos']` is added before `np.vstack([params['cls'], x])`, to
the rows of `x` alone, with the first rows of `params['pos']` ... (2) ... `np.vstack([x,
params['cls']])` puts `x` before `params['cls']`" (the term-before-concatenation edit now reads
the concatenation's parts either way round, so it composes with the reversed parts);
vit-checkpoint observes the broken embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"
                              "+op:parts_reversed:embed_image:x-before-params['cls']"}


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
