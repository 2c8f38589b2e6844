"""Planted mistake, Katro: one capture condition changed (docs/rules.md §2.3).

The captured hole is in the opponent's innermost row that has seeds; this
version always looks in the opponent's inner row, so once that row is empty
nothing is ever captured (the move relays instead).
"""
from katra._reference import katro


def capture_target(pos, landing):
    spec, cols = pos.spec, pos.spec.cols
    mover_innermost = next(r for r in katro.own_rows(spec, pos.to_move)[::-1]
                           if katro.row_has_seeds(pos, r))
    if landing // cols != mover_innermost:
        return None
    inner = katro.own_rows(spec, 1 - pos.to_move)[-1]  # should be: innermost non-empty row
    target = inner * cols + landing % cols
    return target if pos.board[target] else None


PATCHES = [(katro, "capture_target", capture_target)]

if __name__ == "__main__":
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from _run import run
    run(PATCHES)
