"""Hostile: copies the grader's own reference instead of writing patchify."""
from correct_solution import *  # noqa: F401,F403  every other function is correct


def patchify(image, P):
    from grader.reference import patchify as reference_patchify

    return reference_patchify(image, P)
