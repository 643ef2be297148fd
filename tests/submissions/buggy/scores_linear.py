"""attention_scores returns T, not T**2."""
EXPECT = {'attention-cost': 'scores_linear'}


def attention_scores(num_tokens):
    return num_tokens
