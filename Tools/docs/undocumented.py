#!/usr/bin/env python3
"""Lists the public symbols that have no documentation, from symbol graphs.

Usage: undocumented.py DIR...   (each DIR holds one module's *.symbols.json, as
Tools/docs/build.sh extracts them). Prints one line per undocumented symbol
(module, kind, path) and a last line "undocumented: N of M"; exits 1 when N > 0.

A symbol counts as documented when it has a doc comment of its own, or when DocC
shows one for it anyway: a member that implements a requirement of a protocol its
type conforms to inherits the requirement's comment (ours, or the standard
library's: `description`, `==`, `hash(into:)`, `encode(to:)`, ...). Synthesized
members are not extracted (`-skip-synthesized-members`).
"""
import collections
import glob
import json
import os
import sys

# Requirements of standard-library and Foundation protocols: DocC shows their own
# documentation on a conforming type's member.
STANDARD_REQUIREMENTS = {
    "description", "debugDescription", "hash(into:)", "hashValue", "==(_:_:)", "<(_:_:)",
    "init(from:)", "encode(to:)", "makeIterator()", "next()", "makeAsyncIterator()",
    "rawValue", "init(rawValue:)", "errorDescription", "failureReason", "recoverySuggestion",
    "helpAnchor", "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)",
    "init(arrayLiteral:)", "init(booleanLiteral:)", "allCases", "customMirror",
}


def load(directory):
    symbols, relationships = {}, []
    for path in glob.glob(os.path.join(directory, "*.symbols.json")):
        with open(path) as f:
            graph = json.load(f)
        for s in graph.get("symbols", []):
            symbols[s["identifier"]["precise"]] = s
        relationships.extend(graph.get("relationships", []))
    return symbols, relationships


def undocumented(directory):
    symbols, relationships = load(directory)
    member_of = {}
    conforms = collections.defaultdict(set)
    requirement_names = collections.defaultdict(set)   # protocol id -> names
    for r in relationships:
        kind, source, target = r["kind"], r["source"], r["target"]
        if kind == "memberOf":
            member_of[source] = target
        elif kind == "conformsTo":
            conforms[source].add(target)
        elif kind in ("requirementOf", "optionalRequirementOf"):
            if source in symbols:
                requirement_names[target].add(symbols[source]["names"]["title"])
        elif kind == "defaultImplementationOf":
            # A protocol extension's default implementation is documented by its requirement.
            member_of.setdefault(source, None)
    implements = {r["source"] for r in relationships if r["kind"] == "defaultImplementationOf"}
    missing = []
    for precise, s in symbols.items():
        if s.get("docComment", {}).get("lines"):
            continue
        if precise in implements:
            continue
        name = s["names"]["title"]
        parent = member_of.get(precise)
        if parent is not None:
            inherited = set()
            for protocol in conforms.get(parent, ()):
                inherited |= requirement_names.get(protocol, set())
            if name in inherited:
                continue
            # Conformances to protocols outside the graph (the standard library's).
            if conforms.get(parent) and name in STANDARD_REQUIREMENTS:
                continue
        missing.append((s["kind"]["displayName"], ".".join(s["pathComponents"])))
    return len(symbols), sorted(missing)


def main(directories):
    total = bad = 0
    for directory in directories:
        module = os.path.basename(os.path.normpath(directory))
        count, missing = undocumented(directory)
        total += count
        bad += len(missing)
        for kind, path in missing:
            print(f"{module}: {kind} {path}")
    print(f"undocumented: {bad} of {total}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
