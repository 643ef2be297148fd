"""Blind round 58 (b58_12, issue 38): conv_patch_embed and self_attention ported from
sgrvinod/a-PyTorch-Tutorial-to-Transformers `model.py` (MultiHeadAttention.forward's
`input_to_add = query_sequences.clone()` ... `sequences = sequences + input_to_add`,
PositionWiseFCNetwork, Encoder.forward).

Mistakes:
18. conv_patch_embed (line 54 of the file as delivered) loops its inner index over
    `range(H_out)` instead of `range(W_out)`. Wrong only when H != W: with W' > H' the columns
    past H' stay at the bias; with W' < H' the windows run past the image and einsum raises a
    numpy ValueError (or the output is indexed past its width).
19. self_attention (lines 89 and 119) keeps sgrvinod's residual inside the attention,
    `sequences + input_to_add`: it returns x + attention(x), and encoder_block adds the residual
    again. Wrong on every input (self_attention, encoder_block, vit_forward).

Grader: at blind time (ba46f523) and now, 89/110. Mistake 19 named on multi-head-attention's
three checks and no-causal-mask's causal checks ("In `self_attention`, the input `x` is added to
the result, `x + linear(out, p['Wo'], p['bo'])`: a residual inside this step, where the lecture
returns `linear(out, p['Wo'], p['bo'])` alone (the caller adds the residual)."). Mistake 18 only
observed: kernel-stride "Your `conv_patch_embed` is right when H == W, wrong for a 5 x 6 image: use
H and W each where they belong. Here it returns the expected values except in 1 of 4 columns
(column 3)." (and the hidden check's "wrong for a non-square image"); its "kernel P, stride P"
property could not judge (the IndexError, traceback shown). A named hint would say the inner loop
runs `range(H_out)` where `range(W_out)` belongs. vit-checkpoint observes self_attention. #18 was
not named: windows.count_from_sibling's rewrite counts the output's width from H, so a wide
image's output is cut short, where this buffer keeps its width and its last columns stay at the
bias. Since round 58 the operator also reads a right-sized buffer whose loop runs the other
side's count (windows.looped_like: bias past the loop, or a short window that raises, IndexError
where einsum broadcasts it, as here), and #18 is named ("the loop over the columns of the output
runs as many times as there are rows, `range(H_out)` where `range(W_out)` belongs"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-looped-over-H-clipped',
          'no-causal-mask': 'op:input_added:self_attention:x-added-to-the-result',
          'multi-head-attention': 'op:input_added:self_attention:x-added-to-the-result'}


def conv_patch_embed(image, K, b, stride):
    """Convolve an (H, W, C) image with a (k, k, C, d) kernel: (H', W', d)."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel too large")
    H_out, W_out = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((H_out, W_out, K.shape[-1]))
    for y in range(H_out):
        for x in range(H_out):
            out[y, x] = np.einsum("ijc,ijcd->d", image[y * stride:y * stride + k, x * stride:x * stride + k], K)
    return out + b


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    query_sequences = key_value_sequences = x
    query_sequence_pad_length, d_model = query_sequences.shape
    key_value_sequence_pad_length = key_value_sequences.shape[0]
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    n_heads = heads
    d_queries = d_values = d_model // n_heads

    input_to_add = query_sequences.copy()

    # Project input sequences to queries, keys, values
    queries = query_sequences @ p["Wq"] + p["bq"]
    cast_keys_values = np.concatenate([p["Wk"], p["Wv"]], axis=1)
    keys, values = np.split(key_value_sequences @ cast_keys_values + np.concatenate([p["bk"], p["bv"]]), 2, axis=-1)

    # Split the last dimension by the n_heads subspaces
    queries = queries.reshape(query_sequence_pad_length, n_heads, d_queries)
    keys = keys.reshape(key_value_sequence_pad_length, n_heads, d_queries)
    values = values.reshape(key_value_sequence_pad_length, n_heads, d_values)

    # Re-arrange axes such that the last two dimensions are the sequence lengths and the queries/keys/values
    queries = queries.transpose(1, 0, 2)
    keys = keys.transpose(1, 0, 2)
    values = values.transpose(1, 0, 2)

    attention_weights = queries @ keys.transpose(0, 2, 1)
    attention_weights = (1. / math.sqrt(d_queries)) * attention_weights

    if causal:
        not_future_mask = np.tril(np.ones_like(attention_weights)).astype(bool)
        attention_weights = np.where(not_future_mask, attention_weights, -float("inf"))

    attention_weights = softmax(attention_weights, axis=-1)

    sequences = attention_weights @ values  # (n_heads, query_sequence_pad_length, d_values)
    sequences = sequences.transpose(1, 0, 2).reshape(query_sequence_pad_length, -1)

    sequences = sequences @ p["Wo"] + p["bo"]
    sequences = sequences + input_to_add
    return sequences
