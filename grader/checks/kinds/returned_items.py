"""A function that returns a tuple where one value belongs, one item of it the expected value:
a port of a module whose `forward` also returns its attention weights (ijepa's and timm's
`Attention.forward`, `return x, attn`; blind round 57's b57_05), or a helper that returns its
cache with its result. Named only where, on every case the check ran, the student's value is a
tuple (or list) of two or more items and one same item of it agrees with the expected value by
the check's own comparison: that item is then the right result, and the rest is extra. Likewise a
tuple returned where a shorter tuple belongs, its first items the expected tuple on every case:
blind round 69's b69_10 `conv_equivalent` returned (kernel_size, stride, padding), the
(kernel_size, stride) asked for with a padding after it.
"""
from __future__ import annotations

from dataclasses import replace

from ..compare import agrees, default_compare
from ..results import FAILED, MISTAKE

EXTRA_ITEMS = "extra_items_returned"
EXTRA_AFTER = "extra_items_after_expected"
TITLES = {EXTRA_ITEMS: "a tuple returned where one value belongs",
          EXTRA_AFTER: "more values returned than asked for"}
ORDINALS = ("first", "second", "third", "fourth", "fifth")
NUMBERS = ("", "one", "two", "three", "four", "five")
SHOWN = 60  # characters of a visible case's returned tuple quoted at most


def _item(expected, got, how) -> int | None:
    """The index of the one item of the tuple `got` that agrees with `expected`, else None."""
    if isinstance(expected, (tuple, list)) or not isinstance(got, (tuple, list)) or len(got) < 2:
        return None
    found = [i for i, item in enumerate(got) if agrees(expected, item, how)]
    return found[0] if len(found) == 1 else None


def _prefix(expected, got, how) -> int | None:
    """The length of `expected` where it is a tuple (or list) and `got` a longer one whose first
    items agree with it; else None."""
    if not isinstance(expected, (tuple, list)) or not isinstance(got, (tuple, list)) or \
            not expected or len(got) <= len(expected):
        return None
    head = type(expected)(got[:len(expected)])
    return len(expected) if agrees(expected, head, how) else None


def _after(result, check, ran):
    """`result` with the items after the expected ones named when every case that ran returned
    a longer tuple whose first items are the expected tuple; else as it is."""
    counts, sizes = set(), set()
    for planned, outcome in ran:
        expected, raises = planned.expectation()
        if raises is not None or outcome.status != "ok":
            return result
        count = _prefix(expected, outcome.value, check.compare or default_compare(expected))
        if count is None:
            return result
        counts.add(count)
        sizes.add(len(outcome.value))
    if len(counts) != 1:
        return result
    (count,) = counts
    size = sizes.pop() if len(sizes) == 1 else "more"
    first = ran[0][1].value
    shown = repr(tuple(first))
    plain = all(type(item) in (int, float, bool, str) for item in first)  # not np.int64(16)
    shown = f", {shown}" if plain and not check.hidden and len(shown) <= SHOWN else ""
    first_ones = f"first {NUMBERS[count]}" if count < len(NUMBERS) else f"first {count}"
    name = check.function
    return replace(result, misconception=EXTRA_AFTER, hint_kind=MISTAKE, hint=(
        f"Your `{name}` returns {size} values{shown}: the {first_ones} are the expected ones on "
        f"every case here, the rest is extra. Return only those {count} values, as the student "
        f"API's `{name}` does."))


def extra_items(result, check, ran):
    """`result` with the extra items named when every case that ran (`ran`: (planned case,
    outcome) pairs) returned a tuple whose same one item is the expected value; else as it is.
    A mistake named already stays."""
    if result.status != FAILED or result.hint_kind == MISTAKE or not ran:
        return result
    after = _after(result, check, ran)
    if after is not result:
        return after
    items = set()
    for planned, outcome in ran:
        expected, raises = planned.expectation()
        if raises is not None or outcome.status != "ok":
            return result
        how = check.compare or default_compare(expected)
        items.add(_item(expected, outcome.value, how))
    if len(items) != 1 or None in items:
        return result
    (index,) = items
    sizes = {len(outcome.value) for _, outcome in ran}
    count = sizes.pop() if len(sizes) == 1 else "several"
    which = ORDINALS[index] if index < len(ORDINALS) else f"item {index}"
    name = check.function
    return replace(result, misconception=EXTRA_ITEMS, hint_kind=MISTAKE, hint=(
        f"Your `{name}` returns a tuple of {count} values where the student API's `{name}` "
        f"returns one: its {which} item is the expected result on every case here, so the rest "
        f"is extra (as a module's forward that also returns its attention weights, `return x, "
        f"attn`). Return only that {which} item; code of yours that unpacks the tuple from "
        f"`{name}` then takes the one value."))
