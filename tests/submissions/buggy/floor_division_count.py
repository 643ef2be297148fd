"""num_patches floors instead of raising ValueError when the patches do not tile."""
EXPECT = {'patch-count': 'floor_division_count'}


def num_patches(H, W, P):
    return (H // P) * (W // P)
