"""Every file katra writes goes through katra._files.OutputFile (docs/cli.md,
"Conventions"): a regular file is replaced atomically, a symbolic link is written
through (its target replaced, the link kept), a FIFO or a character device is written
directly and never replaced, anything else is refused before anything is written."""
from __future__ import annotations

import errno
import os
import socket
import stat
import threading

import pytest

import katra
from helpers import katra_in_process
from katra._files import OutputFile, write_file
from katra.api import dfpn_table_info
from katra.testing import check_proof

SOLVABLE = "katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S"


def fifo_reader(path):
    """Read the FIFO at path in a thread (katra blocks opening it until a reader opens it):
    a function returning what was read once the writer closed it."""
    got: list[bytes] = []
    thread = threading.Thread(target=lambda: got.append(open(path, "rb").read()), daemon=True)
    thread.start()

    def result() -> bytes:
        thread.join(timeout=60)
        assert not thread.is_alive()
        return got[0]
    return result


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# ---------------------------------------------------------------- the rule, on its own

def test_a_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    os.chmod(path, 0o640)
    before = os.stat(path)
    file = OutputFile(str(path))
    file.stream.write("new\n")
    assert path.read_text() == "old\n"              # the old file stays until the new is whole
    assert (tmp_path / "out.txt.part").exists()
    file.commit()
    after = os.stat(path)
    assert path.read_text() == "new\n" and after.st_ino != before.st_ino
    assert stat.S_IMODE(after.st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]


def test_a_discarded_file_leaves_the_previous_one(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        with OutputFile(str(path)) as stream:
            stream.write("half")
            raise KeyboardInterrupt
    assert path.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["out.txt"]


@pytest.mark.parametrize("existing", [True, False])
def test_a_symbolic_link_is_written_through(tmp_path, existing):
    target = tmp_path / "data" / "target.txt"
    target.parent.mkdir()
    if existing:
        target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_file(str(link), "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n" and not target.is_symlink()
    assert sorted(os.listdir(tmp_path / "data")) == ["target.txt"]


def test_a_fifo_is_written_directly(fifo):
    read = fifo_reader(fifo)
    write_file(str(fifo), b"bytes through a pipe\n")
    assert read() == b"bytes through a pipe\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(os.listdir(fifo.parent)) == ["fifo"]


def test_a_link_to_a_fifo_is_written_through(tmp_path, fifo):
    link = tmp_path / "link"
    link.symlink_to(fifo)
    read = fifo_reader(fifo)
    write_file(str(link), "text\n")
    assert read() == b"text\n" and link.is_symlink() and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_null_is_written_and_dev_full_fails_untouched():
    write_file("/dev/null", "nothing\n")
    before = os.stat("/dev/full")
    with pytest.raises(OSError) as caught:
        write_file("/dev/full", "x" * 100_000)
    assert caught.value.errno == errno.ENOSPC
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (
        before.st_ino, before.st_rdev)


def test_a_directory_and_a_socket_are_refused_before_writing(tmp_path):
    with pytest.raises(IsADirectoryError):
        OutputFile(str(tmp_path))
    path = tmp_path / "socket"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(OSError, match="a block device or a socket, not a file katra can"):
            OutputFile(str(path))
    assert sorted(os.listdir(tmp_path)) == ["socket"]


# ---------------------------------------------------------------- every writer follows it

def test_solve_proof_through_a_link(tmp_path):
    target = tmp_path / "target.proof"
    target.write_text("old\n")
    link = tmp_path / "link.proof"
    link.symlink_to(target)
    result = katra_in_process("solve", SOLVABLE, "--max-plies", "3", "--proof", link)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and check_proof(target).outcome == "win"
    lines = len(target.read_text().splitlines())
    assert f"proof    {link} ({lines} lines)" in result.stdout
    assert sorted(os.listdir(tmp_path)) == ["link.proof", "target.proof"]


def test_solve_proof_into_a_fifo(tmp_path, fifo):
    read = fifo_reader(fifo)
    result = katra_in_process("solve", SOLVABLE, "--max-plies", "3", "--proof", fifo)
    assert result.returncode == 0, result.stderr
    (tmp_path / "copy.proof").write_bytes(read())
    assert check_proof(tmp_path / "copy.proof").outcome == "win"
    lines = len((tmp_path / "copy.proof").read_text().splitlines())
    assert f"proof    {fifo} ({lines} lines)" in result.stdout
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_solve_proof_to_dev_full_is_one_line_and_leaves_the_device():
    before = os.stat("/dev/full")
    result = katra_in_process("solve", "katro-4x4", "--proof", "/dev/full")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "katra solve: cannot write '/dev/full': No space left on device\n"
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_dfpn_table_through_a_link_and_no_fifo(tmp_path, fifo):
    target = tmp_path / "kept" / "t.dfpn"
    target.parent.mkdir()
    link = tmp_path / "t.dfpn"
    link.symlink_to(target)
    for run in (1, 2):
        result = katra_in_process("solve", "katro-4x4", "--tt-bits", "12", "--dfpn-table", link)
        assert result.returncode == 0, result.stderr
        assert link.is_symlink() and dfpn_table_info(target).runs == run
    assert sorted(os.listdir(target.parent)) == ["t.dfpn"]
    refused = katra_in_process("solve", "katro-4x4", "--dfpn-table", fifo)
    assert refused.returncode == 2 and refused.stderr == (
        f"katra: {fifo}: not a regular file (a df-pn table file is read back, so no FIFO "
        f"or device)\n")


def test_tables_through_a_link(tmp_path):
    target = tmp_path / "target.tables"
    link = tmp_path / "link.tables"
    link.symlink_to(target)
    info = katra.api.build_tables("djenon-aboure", 2, link)
    assert link.is_symlink() and katra.api.tables_info(target).bytes == info.bytes
    assert sorted(os.listdir(tmp_path)) == ["link.tables", "target.tables"]


@pytest.mark.parametrize("args, suffix", [(["show", "katro", "--svg"], "svg"),
                                          (["replay", "-", "--html"], "html")])
def test_svg_and_html_through_a_link_and_into_a_fifo(tmp_path, fifo, args, suffix):
    record = katra.State("katro").record()
    target = tmp_path / f"target.{suffix}"
    target.write_text("old\n")
    link = tmp_path / f"link.{suffix}"
    link.symlink_to(target)
    result = katra_in_process(*args, link, stdin=record)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and target.read_text().startswith("<")
    read = fifo_reader(fifo)
    result = katra_in_process(*args, fifo, stdin=record)
    assert result.returncode == 0 and read().decode() == target.read_text()


def test_a_file_that_cannot_be_opened_is_status_2(tmp_path):
    result = katra_in_process("show", "katro", "--svg", tmp_path / "no" / "such.svg")
    assert result.returncode == 2 and result.stderr.startswith("katra show: cannot write ")
    result = katra_in_process("show", "katro", "--svg", "/dev/full")
    assert result.stderr == "katra show: cannot write '/dev/full': No space left on device\n"
    assert result.returncode == 1
