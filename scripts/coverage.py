#!/usr/bin/env python3
"""Refreshes the `tests` column of docs/rules-coverage.tsv.

The rule list and each rule's status and note are maintained by hand in the
TSV; this script only rewrites column 3 with the names of the test cases
(tests/*.cpp) whose name contains that rule number as a whole token, e.g.
"1.04.09 bought-in returns cards" covers 1.04.09 (but not 1.04 or 1.04.09.01).
Run it after adding tests; tests/test_coverage.cpp checks the result.
"""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
tsv = root / "docs" / "rules-coverage.tsv"
names = []
for f in sorted((root / "tests").glob("test_*.cpp")):
    names += re.findall(r'TEST_CASE\("([^"]*)"', f.read_text())

def named(rule):
    pat = re.compile(r'(?<![\d.])' + re.escape(rule) + r'(?![\d]|\.\d)')
    return [n for n in names if pat.search(n)]

def covering(rule):
    """Tests naming the rule; else tests naming its nearest section, marked §."""
    direct = named(rule)
    if direct:
        return direct
    parts = rule.split(".")
    while len(parts) > 2:
        parts.pop()
        section = named(".".join(parts))
        if section:
            return ["§ " + n for n in section]
    return []

lines = tsv.read_text().splitlines()
out = [lines[0]]
for line in lines[1:]:
    rule, status, _tests, note = (line.split("\t") + ["", "", ""])[:4]
    out.append("\t".join([rule, status, " | ".join(covering(rule)), note]))
tsv.write_text("\n".join(out) + "\n")
print(f"{len(out) - 1} rules, {sum(1 for l in out[1:] if l.split(chr(9))[2])} with tests")
