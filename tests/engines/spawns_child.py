"""Test engine: starts a child process (a Python sleeping for ten minutes, given this
engine's arguments, so that a test finds it by them) and prints its pid on stderr as
'child PID'; otherwise well-behaved.  A referee that stops the engine's process group
stops the child too."""
import subprocess
import sys

from well_behaved import Engine

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", *sys.argv[1:]])
sys.stderr.write(f"child {child.pid}\n")
sys.stderr.flush()

if __name__ == "__main__":
    Engine().run()
