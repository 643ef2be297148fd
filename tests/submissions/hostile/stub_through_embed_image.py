"""embed_image is left a stub, and num_patches, num_tokens, patchify and linear_patch_embed are
written as calls to it, with an identity W_e and a zero [CLS] and positions: no counting or
patching code at all. Were a stand-in for embed_image to answer any call, all four would pass
through it; the course solution never calls embed_image from them, so none of them earns a
point (nor does embed_image)."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def embed_image(image, params):
    raise NotImplementedError()


def _through_embed_image(image, P):
    image = np.asarray(image, dtype=float)
    image = image[:, :, None] if image.ndim == 2 else image
    H, W, C = image.shape
    D = P * P * C
    params = {"P": P, "W_e": np.eye(D), "b_e": np.zeros(D), "cls": np.zeros(D),
              "pos": np.zeros(((H // P) * (W // P) + 1, D))}
    return embed_image(image, params)


def num_patches(H, W, P):
    return len(_through_embed_image(np.zeros((H, W)), P)) - 1


def num_tokens(H, W, P, cls_token=True):
    return len(_through_embed_image(np.zeros((H, W)), P)) - (0 if cls_token else 1)


def patchify(image, P):
    return _through_embed_image(image, P)[1:]


def linear_patch_embed(image, W_e, b_e, P):
    return _through_embed_image(image, P)[1:] @ W_e + b_e
