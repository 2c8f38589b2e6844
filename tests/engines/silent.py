"""Test engine: never answers go from its 2nd move of a process (or argv[1]'s) on."""
import sys

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 2


class Silent(Engine):
    name = "silent"

    def go(self, words: list[str]) -> None:
        if self.moves_played + 1 >= AT:
            return
        super().go(words)

    def stop(self) -> None:
        pass  # ignores stop as well


if __name__ == "__main__":
    Silent().run()
