"""Test engine: its 2nd move of a process (or argv[1]'s) takes the time it was given
(movetime, or its clock) plus half a second."""
import sys
import time

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 2


class Overtime(Engine):
    name = "overtime"

    def go(self, words: list[str]) -> None:
        if self.moves_played + 1 == AT:
            budget = 0
            for key in ("movetime", "stime", "ntime"):
                if key in words:
                    budget = max(budget, int(words[words.index(key) + 1]))
            time.sleep(budget / 1000 + 0.5)
        super().go(words)


if __name__ == "__main__":
    Overtime().run()
