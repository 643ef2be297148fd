"""Blind round 37 (b37_10, issue 38): embed_image ported from a Flax MAE-style patch embedding
module (code-search file id 13240169451: Test / PatchEmbed and the MAE util it imports,
get_2d_sincos_pos_embed, get_2d_sincos_pos_embed_from_grid, get_1d_sincos_pos_embed_from_grid).

Mistakes:
1. embed_image adds MAE's fixed 2-D sin-cos table (a zero row for [CLS]) in place of the learned
   positions params["pos"], which is never used. When d % 4 != 0 the table's own asserts raise
   AssertionError. Right only when params["pos"] happens to be that table.

Grader: at blind time (273cad6), observed only: the three cls-and-positions checks had only the
`[checklist]` "The sequence is [CLS] (row 0) followed by the N patch tokens, then + pos"; the
worked example (d not a multiple of 4) and the hidden check showed the AssertionError;
why-positions has the true `[observation]` "Your `embed_image` failed on the inputs this
property gives it"; vit-checkpoint observes embed_image. Now named on every cls-and-positions
check (forward.positions_sincos's asserted variant: MAE's fixed table in place of
params["pos"], and a width that is not a multiple of 4 refused by the table's own assert, said
where a call raised AssertionError and another returned a wrong value). why-positions keeps its
observation: its property could not run embed_image (the AssertionError of the mistake named
above), an observation of the broken function as vit-checkpoint's is, not in EXPECT. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:positions_sincos:embed_image:pos-as-sincos-mae-asserted'}


def embed_image(image, params):
    def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
        """
        embed_dim: output dimension for each position
        pos: a list of positions to be encoded: size (M,)
        out: (M, D)
        """
        assert embed_dim % 2 == 0
        omega = np.arange(embed_dim // 2, dtype=np.float64)
        omega /= embed_dim / 2.
        omega = 1. / 10000**omega  # (D/2,)

        pos = pos.reshape(-1)  # (M,)
        out = np.einsum('m,d->md', pos, omega)  # (M, D/2), outer product

        emb_sin = np.sin(out)  # (M, D/2)
        emb_cos = np.cos(out)  # (M, D/2)

        emb = np.concatenate([emb_sin, emb_cos], axis=1)  # (M, D)
        return emb

    def get_2d_sincos_pos_embed_from_grid(embed_dim, grid):
        assert embed_dim % 2 == 0

        # use half of dimensions to encode grid_h
        emb_h = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[0])  # (H*W, D/2)
        emb_w = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[1])  # (H*W, D/2)

        emb = np.concatenate([emb_h, emb_w], axis=1)  # (H*W, D)
        return emb

    def get_2d_sincos_pos_embed(embed_dim, grid_size, cls_token=False):
        """
        grid_size: (grid height, grid width)
        return:
        pos_embed: [grid_h*grid_w, embed_dim] or [1+grid_h*grid_w, embed_dim] (w/ or w/o cls_token)
        """
        grid_h = np.arange(grid_size[0], dtype=np.float32)
        grid_w = np.arange(grid_size[1], dtype=np.float32)
        grid = np.meshgrid(grid_w, grid_h)  # here w goes first
        grid = np.stack(grid, axis=0)

        grid = grid.reshape([2, 1, grid_size[0], grid_size[1]])
        pos_embed = get_2d_sincos_pos_embed_from_grid(embed_dim, grid)
        if cls_token:
            pos_embed = np.concatenate([np.zeros([1, embed_dim]), pos_embed], axis=0)
        return pos_embed

    P = params["P"]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], P)
    H, W = np.shape(image)[:2]
    pos_embed = get_2d_sincos_pos_embed(x.shape[-1], (H // P, W // P), cls_token=True)
    x = np.concatenate([params["cls"][None, :], x], axis=0)
    return x + pos_embed
