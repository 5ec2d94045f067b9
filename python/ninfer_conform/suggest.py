# SPDX-License-Identifier: Apache-2.0
"""Issue 32, item 8: "did you mean ...?" for a mistyped registry name, worded as the CLI words it
(harness/include/ninfer/harness/suggest.hpp; python/tests/test_sdk.py holds both to the same
answers): the nearest names by optimal string alignment distance, a typed prefix counting one edit."""
from typing import List, Sequence

MAX_TYPED = 64   # longer input is no typo
MAX_LISTED = 24  # more names than this are not listed in full when none is close


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein with adjacent transpositions, no substring edited twice."""
    before, prev = [0] * (len(b) + 1), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], before[j - 2] + 1)
        before, prev = prev, cur
    return prev[len(b)]


def name_distance(typed: str, candidate: str) -> int:
    """The edit distance, or one more than the distance to the candidate's prefix of the typed length."""
    whole = edit_distance(typed, candidate)
    if len(candidate) <= len(typed):
        return whole
    return min(whole, edit_distance(typed, candidate[:len(typed)]) + 1)


def closest_names(typed: str, names: Sequence[str], most: int = 3) -> List[str]:
    """Up to `most` names at the smallest distance within max(1, len(typed) // 3), in table order."""
    if not typed or len(typed) > MAX_TYPED:
        return []
    limit = max(1, len(typed) // 3)
    near = [(d, n) for n in names for d in [name_distance(typed, n)] if d <= limit and n != typed]
    best = min([limit] + [d for d, _ in near])
    out: List[str] = []
    for d, n in near:
        if d == best and len(out) < most and n not in out:
            out.append(n)
    return out


def or_list(names: Sequence[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    return "".join(("" if i == 0 else " or " if i + 1 == len(names) else ", ") + n for i, n in enumerate(names))


def unknown_name_line(head: str, typed: str, names: Sequence[str], lister: str = "") -> str:
    """`head`, then "; did you mean A, B or C?" when some are close, else the names expected."""
    close = closest_names(typed, names)
    if close:
        return head + "; did you mean %s?" % or_list(close) + (" (`%s` lists them)" % lister if lister else "")
    if not names:
        return head + "; there are none"
    if len(names) <= MAX_LISTED or not lister:
        return head + "; expected one of: " + ", ".join(names)
    return head + "; expected one of the %d that `%s` names" % (len(names), lister)
