"""Deliberately wrong implementations of the rules, for testing ``katra diff``.

Each module is katra's pure-Python reference with one rule changed (``PATCHES``:
``(module, name, replacement)``), and, run as a script, the example program of
docs/diff.md (``katra.testing.example``) over that broken reference, speaking
both protocols.  The tests apply ``PATCHES`` in-process with pytest's
monkeypatch for ``katra.testing.compare``.
"""
