"""Blind round 75 (b75_12, issue 38): conv_patch_embed and self_attention ported from
FrancescoMontanaro/Machine-Learning-from-scratch `Deep Learning/Transformer/src/attention_mechanism.py`
(SingleHeadAttention per head, `k @ q.transpose(...) * head_size ** -0.5`, tril mask) and
`Deep Learning/src/core/functional/kernel/conv_2d.py` (`conv_2d_forward`: no bias).

Mistakes:
1. self_attention via single_head_attention (line 143 of the file as delivered): scores
   `k @ q.T`, the transpose of q @ k^T. Wrong on every input (heads 1-4), causal or not.
2. conv_patch_embed via conv_2d_forward (line 97): the bias `b` is never added. Wrong whenever
   b != 0.
The delivered file's top-level helpers `single_head_attention` and `conv_2d_forward` are nested
in the functions here.

Grader: at blind time (db1f63a6) and now, 89/110. Mistake 2 named on kernel-stride ("You
left out the bias: every output channel o gets + b[o]."). Mistake 1 judged partly named on
multi-head-attention and no-causal-mask: "In `self_attention`, the model solution's
`attention(q, k, v, mask)` is given `k` and `q` the other way round": the swap is right, but
said through a helper the student does not have. Since 0848621f (report/swapped_arguments.py)
said in the student's terms, at its own line: "In `self_attention`, the attention scores are
computed as K Q^T, the keys times the transposed queries (at your line `attention_weights = k @
q.T * head_size ** -0.5` in your `single_head_attention`), where Q K^T belongs: ...". Every
mistake named: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_bias_forgotten',
          'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped',
          'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped'}


def conv_patch_embed(image: np.ndarray, K: np.ndarray, b: np.ndarray, stride: int) -> np.ndarray:
    def conv_2d_forward(x: np.ndarray, w: np.ndarray, stride_h: int, stride_w: int, out: np.ndarray) -> None:
        """
        2D Convolution forward pass.

        Parameters:
        - x (np.ndarray): Input tensor of shape (height, width, channels)
        - w (np.ndarray): Weight tensor of shape (output_channels, channels, kernel_height, kernel_width)
        - stride_h (int): Stride height
        - stride_w (int): Stride width
        """

        # Extract dimensions of the tensors
        height, width, channels = x.shape
        output_channels, _, kernel_height, kernel_width = w.shape

        # Compute output dimensions
        out_height = (height - kernel_height) // stride_h + 1
        out_width = (width - kernel_width) // stride_w + 1

        # Iterate over the output height
        for i in range(out_height):
            # Compute the height starting index for the current output position
            i0 = i * stride_h

            # Iterate over the output width
            for j in range(out_width):
                # Compute the width starting index for the current output position
                j0 = j * stride_w

                # Iterate over the output channels
                for c in range(output_channels):
                    # Initialize the accumulator for the convolution operation
                    acc = 0.0

                    # Iterate over the kernel dimensions and channels
                    for ic in range(channels):
                        for di in range(kernel_height):
                            for dj in range(kernel_width):
                                # Compute the convolution operation
                                acc += x[i0 + di, j0 + dj, ic] * w[c, ic, di, dj]

                    # Store the result in the output tensor
                    out[i, j, c] = acc
    x = _as_hwc(image)
    height, width, channels = x.shape
    k = K.shape[0]
    if k > height or k > width:
        raise ValueError(f"Kernel size {k} larger than the input ({height}, {width})")
    w = np.transpose(K, (3, 2, 0, 1))  # (k, k, C, D) -> (D, C, k, k)
    out = np.zeros(((height - k) // stride + 1, (width - k) // stride + 1, w.shape[0]))
    conv_2d_forward(x, w, stride, stride, out)
    return out


def self_attention(x: np.ndarray, p: dict, heads: int, causal: bool = False) -> np.ndarray:
    def single_head_attention(x: np.ndarray, Wq, bq, Wk, bk, Wv, bv, causal: bool = False) -> np.ndarray:
        S, E = x.shape
        head_size = Wq.shape[1]

        # Apply the key, query and value matrices to the embeddings
        k = x @ Wk + bk  # (S, E) -> (S, H)
        q = x @ Wq + bq  # (S, E) -> (S, H)
        v = x @ Wv + bv  # (S, E) -> (S, H)

        # Compute the attention weights, apply the attention mask and normalize the weights using softmax
        attention_weights = k @ q.T * head_size ** -0.5  # (S, H) @ (H, S) -> (S, S)
        if causal:
            attention_mask = np.tril(np.ones((S, S)))
            attention_weights = np.where(attention_mask == 0, -np.inf, attention_weights)
        attention_weights = softmax(attention_weights, axis=-1)  # (S, S) -> (S, S)

        # Compute the contextual embeddings by applying the attention weights to the value embeddings
        return attention_weights @ v  # (S, S) @ (S, H) -> (S, H)
    S, E = x.shape
    if E % heads != 0:
        raise ValueError(f"Embedding size {E} not divisible by the number of heads {heads}")
    H = E // heads

    # Apply each head to the embeddings
    out = np.concatenate([
        single_head_attention(
            x,
            p["Wq"][:, h * H:(h + 1) * H], p["bq"][h * H:(h + 1) * H],
            p["Wk"][:, h * H:(h + 1) * H], p["bk"][h * H:(h + 1) * H],
            p["Wv"][:, h * H:(h + 1) * H], p["bv"][h * H:(h + 1) * H],
            causal,
        )
        for h in range(heads)
    ], axis=-1)  # (S, E) -> (S, H * n_heads)

    # Apply the output linear layer to project the embeddings back to the original size
    return out @ p["Wo"] + p["bo"]  # (S, H * n_heads) -> (S, E)
