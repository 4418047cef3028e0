#!/usr/bin/python3
"""Tests mirror the sources: every core/, app/, cli/ and programs/ .cpp has tests/<same path>_test.cpp, and every
tests/**/*_test.cpp tests a source of its name (.cpp, or .hpp for a header-only one). The files that need no
mirrored test are listed once, with their reasons, in the README's "Tests" section, one list line each:
"- `path`, `glob`: reason" (the backquoted paths before the first colon). Usage: mirror_check.py SOURCE_DIR.
Prints each problem; exit 1 if any."""
import fnmatch
import os
import re
import sys


def exempt_patterns(readme):
    """The backquoted paths before the colon of the list lines ("- ...") of the README's "## Tests" section."""
    patterns, inside = [], False
    for line in open(readme, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip() == "## Tests"
        elif inside and line.startswith("- "):
            patterns += re.findall(r"`([^`\s]+)`", line.split(":", 1)[0])
    return patterns


def files_under(root, top, suffix):
    out = []
    for folder, _, names in os.walk(os.path.join(root, top)):
        out += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(suffix)]
    return sorted(out)


def main(root):
    patterns = exempt_patterns(os.path.join(root, "README.md"))
    if not patterns:
        print("mirror_check: no exempt list found in README.md's \"## Tests\" section")
        return 1
    exempt = lambda path: any(fnmatch.fnmatch(path, p) for p in patterns)
    problems = []
    for top in ("core", "app", "cli", "programs"):
        for source in files_under(root, top, ".cpp"):
            test = os.path.join("tests", source[: -len(".cpp")] + "_test.cpp")
            if not exempt(source) and not os.path.exists(os.path.join(root, test)):
                problems.append(f"{source}: no test at {test} (write one, or list it in the README's Tests section)")
    for test in files_under(root, "tests", "_test.cpp"):
        stem = test[len("tests/"): -len("_test.cpp")]
        if not exempt(test) and not any(os.path.exists(os.path.join(root, stem + ext)) for ext in (".cpp", ".hpp")):
            problems.append(f"{test}: no source {stem}.cpp or .hpp (move it to the mirror path of what it tests)")
    known = [f for top in ("core", "app", "cli", "programs", "tests") for f in files_under(root, top, (".cpp", ".hpp"))]
    for p in patterns:
        if not any(fnmatch.fnmatch(f, p) for f in known):
            problems.append(f"README.md: exempt entry `{p}` matches no file")
    print("\n".join(problems) if problems else f"mirror_check: every source has its mirrored test ({len(patterns)} exempt entries)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
