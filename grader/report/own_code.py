"""A regraded failure said to be in a function's own code only where that is all it can be.

dependencies.py grades a failed check again around correct stand-ins for the student's broken
student-API helpers, and says "so this failure is in `encoder_block`'s own code". The student
API's other functions have checks of their own (right there, or stood in), but a helper of the
submission's own that no exercise checks alone (a `gelu` the block calls, a `_split` of its
own) may hold the mistake as well: blind round 68's b68_02, whose `gelu` has 0.44715 for 0.044715,
was sent to search a right `encoder_block`. So, with the source, the sentence names each such
helper the function calls (directly or through another: quotes.Source.called): "in
`encoder_block`'s own code or in `gelu`, which it calls". Every such helper, the template's
given ones too: the student bundle has no template to compare them with, and says what the full
grader says (tests/test_bundle.py). Nothing here runs student code.
"""
from __future__ import annotations

import re
from dataclasses import replace

from grader.checks.describe import quoted_names
from grader.checks.regrade_notes import OWN_CODE

from .quotes import Source

SAID = re.compile(r"this failure is in `(?P<function>[^\W\d]\w*)`" + re.escape(OWN_CODE))


def owned(check, source: Source | None):
    """`check` (a CheckResult) with its regrade note naming the submission's own helpers the
    function calls beside its own code (the module's docstring); as it is without a source."""
    if source is None or OWN_CODE not in (check.message or ""):
        return check
    message = SAID.sub(lambda m: m.group() + _helpers(m.group("function"), source),
                       check.message)
    return check if message == check.message else replace(check, message=message)


def _helpers(function: str, source: Source) -> str:
    """" or in `gelu`, which it calls" for the helpers of its own the student's `function`
    calls, which no check grades alone; "" when none."""
    names = [name for name in source.called(function) if name != function]
    if not names:
        return ""
    return f" or in {quoted_names(names).replace(' and ', ' or ')}, which it calls"
