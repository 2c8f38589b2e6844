"""Every file katra writes (proofs, df-pn tables, endgame tables, records, SVG, HTML)
is written by ``OutputFile``, by one rule:

* a regular file, or a path where nothing is yet, is replaced atomically: the
  text goes to ``FILE + suffix`` beside it, renamed over ``FILE`` once whole (the
  previous file stays until then, and keeps its permissions);
* a symbolic link is written through: its target is written (atomically, if
  the target is a regular file or missing), the link itself is left as it is;
* a FIFO or a character device (``/dev/stdout``, ``/dev/null``) is written
  directly: its reader gets the text, and the node is never replaced;
* a directory, a block device or a socket is refused (``OSError``), before
  anything is written.
"""
from __future__ import annotations

import errno
import os
import stat
from typing import IO, Any

__all__ = ["OutputFile", "write_file"]


def _refused(path: str, what: str) -> OSError:
    return OSError(errno.EINVAL, f"{what}, not a file katra can write", path)


class OutputFile:
    """``path`` opened for writing by the module's rule (text, UTF-8, unless ``binary``):
    write to ``stream``, then ``commit`` (the file is whole) or ``discard``
    (the previous file, if any, stays; written directly, what was written stays).
    ``OSError`` if the path cannot be written, before anything is."""

    def __init__(self, path: str, *, binary: bool = False, suffix: str = ".part") -> None:
        self.path = path
        try:
            info = os.stat(path)              # follows links
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        self.direct = info is not None and not stat.S_ISREG(info.st_mode)
        mode = "wb" if binary else "w"
        encoding = None if binary else "utf-8"
        if self.direct:
            assert info is not None
            if not (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
                raise _refused(path, "a block device or a socket")
            self.target, self.part = path, path
        else:
            # a link (to a file, or to nothing yet) is written through: its target
            self.target = os.path.realpath(path) if os.path.islink(path) else path
            self.part = self.target + suffix
        self.stream: IO[Any] = open(self.part, mode, encoding=encoding)
        if info is not None and not self.direct:
            try:
                os.chmod(self.part, stat.S_IMODE(info.st_mode))
            except OSError:
                pass                          # another owner's file: the umask's mode then

    def commit(self) -> None:
        """Close the stream and put the file in place (``OSError`` if that fails, and
        then the previous file stays)."""
        try:
            self.stream.close()
            if not self.direct:
                os.replace(self.part, self.target)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Close the stream, remove the unfinished copy (never raises)."""
        try:
            self.stream.close()
        except OSError:
            pass
        if not self.direct:
            try:
                os.remove(self.part)
            except OSError:
                pass

    def __enter__(self) -> IO[Any]:
        return self.stream

    def __exit__(self, kind: object, exc: object, traceback: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_file(path: str, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` by the module's rule."""
    with OutputFile(path, binary=isinstance(data, bytes)) as stream:
        stream.write(data)
