"""num_patches counts overlapping stride-1 windows."""
EXPECT = {'patch-count': 'overlapping_windows_count'}


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H - P + 1) * (W - P + 1)
