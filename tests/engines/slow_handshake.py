"""Test engine: waits argv[1] seconds (default 600) before it reads anything, so its
handshake comes after any --handshake-timeout a test gives."""
import sys
import time

from well_behaved import Engine

time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 600)

if __name__ == "__main__":
    Engine().run()
