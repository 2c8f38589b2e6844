"""Planted mistake, Katra Mpantsaka: a relay stops one lap early (docs/rules.md §3.3).

A lap that lands in an occupied hole is followed by another lap (a capture or
a relay); this version ends the move instead of relaying when the landing
hole held a single seed (now 2), so that move stops one lap short.
"""
from katra._reference import mpantsaka


def sow(pos, action, limit):
    spec, cols, board = pos.spec, pos.spec.cols, pos.board
    origin, direction = divmod(action, 2)
    next_hole = mpantsaka.next_table(mpantsaka.paths(spec)[pos.to_move][direction])
    my_front = mpantsaka.front_row(spec, pos.to_move)
    their_front = mpantsaka.front_row(spec, 1 - pos.to_move)
    hand, board[origin] = board[origin], 0
    hole, laps = origin, 1
    while True:
        for _ in range(hand):
            hole = next_hole[hole]
            board[hole] += 1
        if board[hole] == 1:
            return laps
        facing = their_front * cols + hole % cols
        captures = hole // cols == my_front and board[facing]
        if not captures and board[hole] == 2:  # planted: this relay is never sown
            return laps
        if laps == limit:
            return None
        laps += 1
        hand, board[hole] = board[hole], 0
        if captures:
            hand, board[facing] = hand + board[facing], 0


PATCHES = [(mpantsaka, "sow", sow)]

if __name__ == "__main__":
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from _run import run
    run(PATCHES)
