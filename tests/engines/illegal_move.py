"""Test engine: its 3rd bestmove of a process (or argv[1]'s) is a move that is not legal."""
import sys

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 3


class IllegalMove(Engine):
    name = "illegal-move"

    def choose(self, nodes: int = 0) -> str:
        if self.moves_played + 1 == AT:
            state = self.state
            legal = set(state.legal_actions())
            wrong = next((a for a in range(state.game.num_actions) if a not in legal), None)
            if wrong is not None:
                return state.action_text(wrong)
        return super().choose(nodes)


if __name__ == "__main__":
    IllegalMove().run()
