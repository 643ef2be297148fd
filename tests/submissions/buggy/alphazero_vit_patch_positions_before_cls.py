"""Blind round 46 (b46_11, issue 38): embed_image ported from the ViTPatch module of an
AlphaZero-style game model (code-search file id 40655679030: `x = self.patch_proj(patches)`,
`x = x + self.pos_emb`, then the class embedding concatenated in front).

Mistakes:
1. The positions are added to the patch tokens before [CLS] is prepended, with pos[:N]: [CLS] gets
   no position and patch n gets pos[n] instead of pos[n + 1]. Wrong on every input with pos != 0.

Grader: at blind time (78229091) and now, named on cls-and-positions: "`x + params['pos']` is
added before `np.vstack([params['cls'], x])`, to the rows of `x` alone, with the first rows of
`params['pos']` ...". vit-forward is graded with the grader's embed_image; vit-checkpoint
observes the broken embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def embed_image(image, params):
    patches = patchify(image, params["P"])
    x = patches @ params["W_e"] + params["b_e"]  # patch_proj
    x = x + params["pos"][: x.shape[0]]  # x = x + self.pos_emb
    class_emb = params["cls"][None, :]
    return np.concatenate([class_emb, x], axis=0)
