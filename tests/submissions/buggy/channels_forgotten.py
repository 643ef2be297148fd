"""patch_dim forgets the channels."""
EXPECT = {'flatten-length': 'channels_forgotten'}


def patch_dim(P, C=3):
    return P * P
