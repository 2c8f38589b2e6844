"""Test engine: 'go infinite' never ends: it ignores stop (every other go is answered)."""
from well_behaved import Engine


class IgnoresStop(Engine):
    name = "ignores-stop"

    def stop(self) -> None:
        pass


if __name__ == "__main__":
    IgnoresStop().run()
