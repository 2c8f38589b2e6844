"""Planted mistake in the counting, not the rules: the root call's first count is one too many.

Right legal moves everywhere (katra's own divide), but called without moves at
depth 2 or more it adds 1 to the first move's count, so its counts contradict
themselves one ply down.
"""
import sys

import katra


def main(argv):
    depth, text, moves = int(argv[0]), argv[1], argv[2:]
    state = katra.State.from_text(text)
    for move in moves:
        state.push(move)
    counts = katra.divide(state, depth)
    if not moves and depth >= 2 and counts:
        first = next(iter(counts))
        counts[first] += 1
    for move, count in counts.items():
        print(move, count)
    print()
    print(sum(counts.values()))


if __name__ == "__main__":
    main(sys.argv[1:])
