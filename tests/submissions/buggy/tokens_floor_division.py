"""num_tokens counts the patches itself with floor division instead of calling num_patches, so it
returns a count instead of raising ValueError when P does not tile the image."""
EXPECT = {'token-count': 'tokens_floor_division'}


def num_tokens(H, W, P, cls_token=True):
    n = (H // P) * (W // P)
    if cls_token:
        n += 1
    return n
