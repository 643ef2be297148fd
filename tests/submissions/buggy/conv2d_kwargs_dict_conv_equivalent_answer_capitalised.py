"""Blind round 11 (b11_12, issue 38): conv_equivalent from nn.Conv2d keyword arguments; ANSWERS copied from the sheet.

Sources: timm PatchEmbed (self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size,
stride=patch_size)); HF ViTPatchEmbeddings (nn.Conv2d(..., kernel_size=patch_size,
stride=patch_size)).
Mistakes:
 1. conv_equivalent returns the keyword dict {"kernel_size": P, "stride": P} instead of the
    tuple (P, P) (every P).
 2. ANSWERS["medical"] = "Pretrained", the right option with a capital letter (as a heading
    on the sheet would show it).

Grader: at blind time "got: dict with keys kernel_size, stride / expected a tuple or list of 2
values" and the checklist "Return two integers, (kernel_size, stride) ...". Now named on both
checks (ports.sizes_as_keywords: the result returned as the keyword arguments of the layer it
configures, `dict(kernel_size=P, stride=P)`, the names the reference's return comment gives the
tuple's parts). "Pretrained" is accepted: the student API says case and surrounding white space
do not matter, so it is no mistake after all.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:sizes_as_keywords:conv_equivalent:as-keyword-arguments'}


def conv_equivalent(P):
    """The arguments of nn.Conv2d(in_chans, embed_dim, kernel_size=P, stride=P)."""
    return dict(kernel_size=P, stride=P)


ANSWERS["medical"] = "Pretrained"
