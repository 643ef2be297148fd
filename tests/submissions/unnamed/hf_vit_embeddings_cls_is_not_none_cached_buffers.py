"""Blind round 16 (b16_02, issue 38): num_tokens and embed_image ported from Hugging Face
transformers' ViTEmbeddings (`if self.cls_token is not None`; cls_token and position_embeddings
kept as buffers created on the first forward pass).

Mistakes:
1. num_tokens adds the [CLS] row whenever `cls_token is not None`, so cls_token=False still counts
   it (N + 1 instead of N).
2. embed_image caches params["cls"] and params["pos"] on its first call and reuses them on every
   later call (stale parameters; a crash when a later call has other shapes). The student's cache
   is a module-level `_BUFFERS = {}`; the builder replaces only the solution's own definitions, so
   here the same dict lives on the function (`embed_image.__dict__`), created once per process as
   the module-level one is.

Grader: at blind time and now, the [CLS] counted without cls_token is named (cls_always); the
cached buffers get only the cls-and-positions checklist and a generic "the traceback says where"
observation on why-positions. Not named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always', 'cls-and-positions': None}


def num_tokens(H, W, P, cls_token=True):
    """HF ViTEmbeddings: the [CLS] row is there when a cls_token is configured."""
    n = num_patches(H, W, P)
    if cls_token is not None:
        n += 1
    return n


def embed_image(image, params):
    """HF ViTEmbeddings.forward: cls_token and position_embeddings live as buffers."""
    _BUFFERS = embed_image.__dict__.setdefault("_BUFFERS", {})  # the student's module-level {}
    if "cls" not in _BUFFERS:
        _BUFFERS["cls"] = np.asarray(params["cls"], dtype=float).copy()
        _BUFFERS["pos"] = np.asarray(params["pos"], dtype=float).copy()
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = _BUFFERS["cls"].reshape(1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    embeddings = embeddings + _BUFFERS["pos"]
    return embeddings
