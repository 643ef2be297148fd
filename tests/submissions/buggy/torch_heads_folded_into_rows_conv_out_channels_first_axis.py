"""Blind round 15 (b15_09, issue 38): attention after a PyTorch implementation that folds the
heads into the batch (q.view(B * n_head, T, hs), then bmm) with the batch axis dropped;
conv_patch_embed from a loop tutorial written for PyTorch's (out, in, k, k) weights.

Mistakes:
1. self_attention reshapes q, k, v to (T * heads, d_h) and runs ONE attention over those rows,
   so each head's queries attend to every head's keys (right with one head only).
2. conv_patch_embed takes the number of output channels from K.shape[0] (torch's out_channels),
   which in this API is the kernel size k, instead of K.shape[3] (d): right only when k == d;
   otherwise `+ b` fails to broadcast, K[..., o] raises IndexError, or (k = 1) one channel is
   broadcast into all.

Grader: at blind time, the folded heads were observed ("right with one head, wrong with
heads=2"); since session 16 they are named on both attention exercises (heads.heads_elsewhere:
folded into the rows, one attention over the T * heads rows). The channel count got only
tracebacks and the property's "fix where it failed"; now named on kernel-stride's call checks
(contractions.channels_from_first_axis: the output channels counted from `K.shape[0]`, each
computed with `K[:, :, :, o]`: numpy's own broadcast error and IndexError, the values where
k == 1 or k == d).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:channels_from_first_axis:conv_patch_embed:K-out-channels-from-axis-0', 'no-causal-mask': 'op:heads_elsewhere:self_attention:heads-folded-into-rows', 'multi-head-attention': 'op:heads_elsewhere:self_attention:heads-folded-into-rows'}


def conv_patch_embed(image, K, b, stride):
    """Naive loops (tutorial written for torch weights: out_channels is the first axis)."""
    image = _as_hwc(image)
    k = K.shape[0]
    out_channels = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    out = np.zeros((Ho, Wo, out_channels))
    for i in range(Ho):
        for j in range(Wo):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(out_channels):
                out[i, j, o] = np.sum(window * K[:, :, :, o])
    return out + b


def self_attention(x, p, heads, causal=False):
    """Heads folded into the rows (port of q.view(B*nh, T, hs) ... torch.bmm, batch dropped)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(-1, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(-1, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(-1, d_h)
    att = q @ k.T / math.sqrt(d_h)
    if causal:
        att = np.where(np.tril(np.ones(att.shape, dtype=bool)), att, -np.inf)
    y = softmax(att, axis=-1) @ v
    return y.reshape(T, d) @ p["Wo"] + p["bo"]
