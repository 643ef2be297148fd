"""Blind round 68 (b68_09, issue 38): conv_patch_embed and self_attention ported from
gaminghusky1/AIProjects `base_model/layers.py` (Convolution.get_windows / forward_pass,
Attention.forward_pass) and the older `causal` of `base_model/masks.py`. The student's top-level
`causal_mask` is nested in self_attention here: the builder replaces only the solution's own
definitions.

Mistakes:
17. conv_patch_embed (lines 104-106 of the file as delivered): the windows flattened in the
    layer's (C, kh, kw) order but the kernel with `K.reshape(k*k*C, d)`, (kh, kw, C): channels
    and pixels mixed. Wrong with C > 1 only (sizes, stride and floor right).
18. self_attention (lines 155, 184 and 185): the older `causal()` mask (0 allowed, -1e9 on the
    future) fed to the layer's `np.where(mask, raw_scores, -1e9)`, which keeps where the mask is
    nonzero: the mask inverted (the past and the diagonal hidden, the future kept; the last row
    uniform). Wrong with causal=True only.

Grader: at blind time (766069c5) 101/110, both named, with a WRONG detail in mistake 17's hint
(the judge's wrong hint 4): "`windows` and `K` are flattened each in its own order (`windows`
over its axes 2, 3, 4 ...) ... Bring `windows`'s axes into the order 3, 4, 2 before flattening
it", the model solution's tensordot and its 5-D axis numbers, of code with no tensordot whose
`windows` is 6-D. Now (after the same session's mend of contractions' orders by meaning), 101/110, every mistake
named and no hint wrong: mistake 17 on kernel-stride's two conv_patch_embed checks ("each window
and the kernel are flattened each in its own order ... (the model solution's `np.tensordot(...)`
pairs axes 3, 4, 2 of its `windows` with axes 0, 1, 2 of its `K`, by meaning). Each window is
read channel first, (c, p1, p2), torch's weight order, while the kernel is flattened (p1, p2,
c) ... Flatten each window in the kernel's order, (p1, p2, c), before multiplying"; the check
"kernel P, stride P equals the linear map" gives its checklist); mistake 18 on no-causal-mask's
two failed checks ("the mask hides the scores it should keep and keeps the ones it should hide,
`np.where(mask, -1e9, scores)` in effect ... the last query, with every key hidden, weighs all
of them alike"). So in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart',
          'no-causal-mask': 'op:mask_swapped:self_attention/attention:'
                            'kept-and-hidden-swapped-finite-fill'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    from numpy.lib.stride_tricks import sliding_window_view
    image = _as_hwc(image)
    H, W, C = image.shape
    kernel_shape = K.shape[:2]
    if kernel_shape[0] > H or kernel_shape[1] > W:
        raise ValueError(f"kernel {kernel_shape} is larger than the {H}x{W} image")
    num_filters = K.shape[-1]
    kernel_stack_size = int(np.prod(K.shape[:3]))
    output_shape = ((H - kernel_shape[0]) // stride + 1, (W - kernel_shape[1]) // stride + 1)

    prev_layer_activations = image.transpose(2, 0, 1)[np.newaxis]  # (1, C, H, W) like the Convolution layer
    windows = sliding_window_view(prev_layer_activations, window_shape=kernel_shape, axis=(2, 3))
    windows = windows[:, :, ::stride, ::stride, :, :].transpose((0, 2, 3, 1, 4, 5))
    windows = windows.reshape((1, -1, kernel_stack_size))
    flattened_weights = K.reshape((kernel_stack_size, num_filters)).T  # (num_filters, kernel_stack_size)
    z_output = np.einsum('bok,fk->bfo', windows, flattened_weights)
    z_output = z_output.reshape((1, num_filters, *output_shape))
    z_output += b[:, np.newaxis, np.newaxis]
    return z_output[0].transpose(1, 2, 0)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    def causal_mask(sequence_len):
        # Upper triangle of -inf so softmax will not let k_i attend to q_j for i > j (dimension is j*i).
        causal_mask = np.triu(np.ones((sequence_len, sequence_len)), k=1) * -1e9
        return causal_mask

    sequence_len, d_i = x.shape
    if d_i % heads:
        raise ValueError(f"width {d_i} is not divisible by {heads} heads")
    # t and s are both sequence_length, this is just to distinguish the q dimension and the k dimension for einsum.
    q = np.einsum('ik,ti->tk', p["Wq"], x) + p["bq"]
    k = np.einsum('ik,si->sk', p["Wk"], x) + p["bk"]
    v = np.einsum('iv,si->sv', p["Wv"], x) + p["bv"]

    # split each into heads for multihead attention
    q = np.reshape(q, (sequence_len, heads, -1)).transpose((1, 0, 2))
    k = np.reshape(k, (sequence_len, heads, -1)).transpose((1, 0, 2))
    v = np.reshape(v, (sequence_len, heads, -1)).transpose((1, 0, 2))

    d_head = q.shape[-1]
    scale = 1.0 / np.sqrt(d_head)
    raw_scores = np.einsum('htk,hsk->hts', q, k) * scale
    if causal:
        mask = causal_mask(sequence_len)
        raw_scores = np.where(mask, raw_scores, -1e9)

    attention_scores = softmax(raw_scores)

    z_output = np.einsum('hts,hsv->htv', attention_scores, v)
    z_output = z_output.transpose((1, 0, 2)).reshape((sequence_len, -1))
    a_output = np.einsum('vi,tv->ti', p["Wo"], z_output)
    a_output += p["bo"]
    return a_output
