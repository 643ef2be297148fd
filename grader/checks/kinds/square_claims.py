"""Where a named mistake's sentence says the code is still right: "(right only when H == W)", as
the error model writes it (reference/error_model: names.py's sibling term, collapse.py's square
count, grids.py's square grids, windows.py's counts copied from the other side, inputs.py's
buffer read with its sides swapped). That is true of the mistake alone; of the student's code,
only where no square image failed too: a crop with no tiling test that also counts its grid from
H returns a 5 x 5 image's patches where ValueError is due. `square_unclaimed(sentence)` is the
sentence without that claim (mistakes.py says it so where a square case of the function failed,
on any check). Kept here, not beside the sentences: a change under grader/reference changes the
compiled data's hash; test_mistakes holds every form the error model writes to one these
patterns take out."""
from __future__ import annotations

import re

# "(right only when H == W)" at a sentence's end; "right (only) when H == W; on another image
# ..." inside it, where "on a non-square image ..." says the rest without the claim
_ASIDE = re.compile(r" \(right only when (?:H == W|W == H)\)")
_THEN = re.compile(r"right (?:only )?when (?:H == W|W == H); on another image")
# "right when H == W, wrong for any other image" (inputs.py's buffer read with its sides swapped)
_ELSE = re.compile(r"right (?:only )?when (?:H == W|W == H), wrong for any other image")


def square_unclaimed(sentence: str) -> str:
    """`sentence` without its claim that the code is right on square images."""
    sentence = _ELSE.sub("wrong for a non-square image", _ASIDE.sub("", sentence))
    return _THEN.sub("on a non-square image", sentence)
