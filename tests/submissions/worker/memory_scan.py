"""A `patchify` that reads its whole process memory (ctypes, as hostile code can) and prints
which of two markers it finds there: one the grading process had in its environment, one in its
command line (tests/test_forked_zygote.py). Each marker is kept as two reversed halves, so the
search never makes the whole marker itself. Appended to the solution, it replaces its patchify."""
import sys


def _found(pairs):
    regions = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            span, perms, *rest = line.split()
            if perms.startswith("r") and not (rest[-1:] and rest[-1].startswith("[v")):
                start, end = (int(x, 16) for x in span.split("-"))
                regions.append((start, end))
    found = {name: False for name in pairs}
    import ctypes

    for start, end in regions:
        for at in range(start, end, 1 << 24):
            data = ctypes.string_at(at, min(end - at, (1 << 24) + 64))
            for name, (a, b) in pairs.items():
                i = data.find(a)
                while i >= 0 and not found[name]:
                    found[name] = data[i + len(a):i + len(a) + len(b)] == b
                    i = data.find(a, i + 1)
    return found


_SEEN = []  # the first call's finding: one search is enough


def patchify(image, patch):
    if _SEEN:
        print(_SEEN[0])
        return None
    pairs = {name: (a[::-1].encode(), b[::-1].encode()) for name, (a, b) in
             {"env": ("RAHWOLEY", "EUQITROK"), "argv": ("NOSIMMARG", "TEWSDNAL")}.items()}
    forbidden = sorted(m for m in sys.modules
                       if m.startswith(("grader.reference", "grader.spec", "grader.checks")))
    _SEEN.append(f"forbidden modules: {forbidden}; markers found: {_found(pairs)}")
    print(_SEEN[0])
    return None
