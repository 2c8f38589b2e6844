"""Test engine: answers the position before its 2nd move of a process (or argv[1]'s) with
'error cannot read the position'."""
import sys

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 2


class ErrorReply(Engine):
    name = "error-reply"

    def position(self, line: str) -> None:
        if self.moves_played + 1 == AT:
            self.moves_played += 1
            self.send("error cannot read the position")
            return
        super().position(line)

    def go(self, words: list[str]) -> None:
        if self.moves_played == AT:  # the go after the refused position: nothing to answer
            return
        super().go(words)


if __name__ == "__main__":
    ErrorReply().run()
