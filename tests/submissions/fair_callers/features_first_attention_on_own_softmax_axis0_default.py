"""Blind round 24 (b24_03, issue 38): NNlib.jl's `softmax(x; dims = 1)` ported with its default,
axis=0 (wrong: the lecture's default is -1), a Transformers.jl features-first self_attention that
builds (T_k, T_q) scores and relies on that default to normalise over the keys (right: it passes
its own checks with this softmax), and a Julia `vec(patch)` column-major patch flatten (wrong).
vit_forward is the solution's: with the grader's patchify standing in it is right, but with the
grader's softmax standing in too, the student's self_attention breaks. So vit-forward is graded
again with the student's own softmax put back and keeps its points."""
# ruff: noqa: F821  (every other name is the solution's)


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for i in range(H // P):
        for j in range(W // P):
            patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            rows.append(patch.reshape(-1, order="F"))
    return np.stack(rows)


def softmax(x, axis=0):
    x = np.asarray(x)
    top = np.max(x, axis=axis, keepdims=True)
    out = np.exp(x - top)
    return out / np.sum(out, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    dh = d // heads
    xt = x.T
    q = p["Wq"].T @ xt + p["bq"][:, None]
    k = p["Wk"].T @ xt + p["bk"][:, None]
    v = p["Wv"].T @ xt + p["bv"][:, None]
    outs = []
    for h in range(heads):
        qh, kh, vh = (m[h * dh:(h + 1) * dh, :] for m in (q, k, v))
        score = (kh.T @ qh) / np.sqrt(dh)
        if causal:
            score = np.where(np.triu(np.ones((T, T), dtype=bool)), score, -np.inf)
        outs.append(vh @ softmax(score))
    y = np.concatenate(outs, axis=0)
    return (p["Wo"].T @ y + p["bo"][:, None]).T
