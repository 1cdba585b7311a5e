#!/usr/bin/env python3
"""Reads a ThreadSanitizer log and fails on any race that is not the known false positive.

ThreadSanitizer does not see Synchronization.Mutex's lock on Linux (a futex it has no
interceptor for), so it reports every pair of accesses made inside `withLock` closures on two
threads as a race. Tools/tsan/mutex-counter.swift shows it in 15 lines: two threads add
100 000 each under one Mutex, TSan reports a race, and the total is exactly 200 000.

A name-based suppression file cannot single these out: `withLock` is inlined, even at -Onone,
so the reported frames are the caller's closures, and a pattern broad enough to match them
would hide real races too. So each report is judged here instead: it is the false positive
when each racing access was made with a `withLock { … }` closure on its stack: a frame of
it, with a source line, lies inside such a block of its function (the access itself, or the
call that led to it, as a method on the locked state called from the closure). A frame on
the stack is running, so that closure's lock was held at the access. Anything else is a real
race and fails the run.

Usage: check.py TSAN_LOG
"""
import re
import sys

FRAME = re.compile(r"#\d+ .*? (/[^ :]+\.swift):(\d+)")


def access_stacks(block):
    """The frames with a source line of each of the two accesses, innermost first."""
    found = []
    # Each access's stack follows its header line: "  Read of size 8 at … by thread T1:",
    # "  Previous modifying access of Swift variable at … by thread T2:".
    for part in re.split(r"\n  \S[^\n]* by (?:main )?thread[^\n]*:\n", block)[1:3]:
        part = part.split("\n\n")[0]
        found.append([(m.group(1), int(m.group(2))) for m in FRAME.finditer(part)])
    return found


def under_lock(stack):
    """The first frame of `stack` that lies inside a withLock block, or None."""
    for frame in stack:
        if inside_with_lock(*frame):
            return frame
    return None


def inside_with_lock(path, line):
    """Whether source line `line` lies inside a `withLock { … }` block of its function: the
    blocks that enclose it are found by matching braces upwards, up to the function itself."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        return False
    depth = 0
    for i in range(line - 1, max(-1, line - 80), -1):
        text = lines[i].split("//")[0]
        if i == line - 1:
            # A one-line `withLock { … }` holds its access on its own line.
            if "withLock" in text:
                return True
            continue
        depth += text.count("}") - text.count("{")
        if depth < 0:
            if "withLock" in text:
                return True
            depth = 0
        if re.search(r"\bfunc\b|\binit\b\s*[(<]|\bvar\b.*\{\s*$", text):
            return False
    return False


def main(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    blocks = text.split("WARNING: ThreadSanitizer:")[1:]
    real = 0
    for block in blocks:
        block = block.split("SUMMARY:")[0]
        frames = [under_lock(stack) for stack in access_stacks(block)]
        if len(frames) == 2 and all(frames):
            print("known false positive (both accesses under withLock): %s:%d, %s:%d" % (*frames[0], *frames[1]))
        else:
            real += 1
            print("RACE:" + block)
    print("tsan: %d reports, %d real" % (len(blocks), real))
    return 1 if real else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
