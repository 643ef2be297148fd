"""Two pairs of functions defined through each other, so that neither holds the code: patchify is
linear_patch_embed with an identity map and linear_patch_embed is patchify's result mapped;
num_patches is num_tokens less one and num_tokens is num_patches plus one. Called as they are,
each recurses until Python stops it. linear_patch_embed and num_tokens are right given their
helper, so they may pass with a stand-in; patchify and num_patches, whose stand-ins the course
solution never calls, earn nothing."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patchify(image, P):
    image = np.asarray(image, dtype=float)
    C = image.shape[2] if image.ndim == 3 else 1
    return linear_patch_embed(image, np.eye(P * P * C), 0.0, P)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def num_patches(H, W, P):
    return num_tokens(H, W, P) - 1


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)
