"""Blind round 57 (b57_14, issue 38): self_attention and embed_image ported from
gordicaleksa/pytorch-original-transformer `models/definitions/transformer_model.py`
(MultiHeadedAttention, Embedding's `embeddings * math.sqrt(self.model_dimension)`) and
`utils/data_utils.py` (`get_masks_and_count_tokens_trg`: `trg_no_look_forward_mask =
torch.triu(torch.ones((1, 1, trg_len, trg_len)) == 1).transpose(2, 3)`). The student's
`get_trg_no_look_forward_mask` (top-level in the file) is nested in self_attention here: the
builder replaces only the solution's own definitions.

Mistakes:
21. self_attention's keep-mask (line 85 of the file as delivered) is `np.triu(ones == 1)`
    without gordic's `.transpose(2, 3)`: it keeps the upper triangle, so each token attends to
    itself and the later tokens and the earlier ones are hidden. Wrong only with causal=True;
    the default (no mask) is right.
22. embed_image (line 65) ports gordic's `Embedding`: the patch tokens are multiplied by
    sqrt(d) before [CLS] and the positions are added. Wrong on every input.

Grader: at blind time (84f876fc) and now, both named. Mistake 21 on no-causal-mask's "causal=True
gives GPT's mask, causal=False none" ("Your mask is upside down: token i sees tokens i..T-1.
GPT's mask keeps the lower triangle (np.tril), so token i sees tokens 0..i.") and its hidden
check ("Your causal mask is upside down: keep the lower triangle (np.tril)."). Mistake 22 on
cls-and-positions' three value checks ("In `embed_image`, the output of
`linear_patch_embed(image, params['W_e'], params['b_e'], params['P'])` is multiplied by the
square root of its width d, `x = linear_patch_embed(...) * math.sqrt(d)` (as the Transformer
scales its embeddings): the lecture scales nothing there."); vit-forward keeps full marks around
it; vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:scaled_by_width:embed_image:linear_patch_embed-times-sqrt-d',
          'no-causal-mask': 'attention_mask_transposed'}


def embed_image(image, params):
    """The token sequence (N + 1, d)."""
    model_dimension = params["W_e"].shape[1]
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) * math.sqrt(model_dimension)
    embeddings = np.concatenate([params["cls"][None, :], embeddings], axis=0)
    positional_encodings = params["pos"][:embeddings.shape[0]]
    return embeddings + positional_encodings


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def get_trg_no_look_forward_mask(sequence_length):
        return np.triu(np.ones((sequence_length, sequence_length)) == 1)

    model_dimension = x.shape[-1]
    if model_dimension % heads != 0:
        raise ValueError("Model dimension must be divisible by the number of heads.")
    number_of_heads = heads
    head_dimension = int(model_dimension / number_of_heads)
    seq_len = x.shape[0]

    # Step 1: input linear projection, (S, NH*HD) -> (S, NH, HD) -> (NH, S, HD)
    query, key, value = [(x @ p["W" + n] + p["b" + n]).reshape(seq_len, number_of_heads, head_dimension).transpose(1, 0, 2)
                         for n in "qkv"]

    # Step 2: scaled dot-product attention
    scores = np.matmul(query, key.transpose(0, 2, 1)) / math.sqrt(head_dimension)
    if causal:
        mask = get_trg_no_look_forward_mask(seq_len)
        scores = np.where(mask == False, -np.inf, scores)  # noqa: E712
    attention_weights = softmax(scores, axis=-1)
    intermediate_token_representations = np.matmul(attention_weights, value)

    # Step 3: (NH, S, HD) -> (S, NH, HD) -> (S, NH*HD)
    reshaped = intermediate_token_representations.transpose(1, 0, 2).reshape(seq_len, number_of_heads * head_dimension)

    # Step 4: output linear projection
    return reshaped @ p["Wo"] + p["bo"]
