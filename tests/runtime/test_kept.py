"""Kept files (odds.runtime.kept): read back only when sound and of the same code.

Each test points the cache folder at a temporary one and counts the builds: a
kept value is built once, read afterwards, and built again (and replaced)
when its file is damaged, was written by other code, or asks for a class it
may not make.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field
from operator import itemgetter

import pytest

from odds.runtime import kept as kept_module
from odds.runtime.kept import MAGIC, kept


@dataclass(frozen=True)
class Table:
    rows: tuple[int, ...]
    gather: itemgetter[int] = field(compare=False)


class Builder:
    def __init__(self) -> None:
        self.builds = 0

    def __call__(self) -> Table:
        self.builds += 1
        return Table(tuple(range(100)), itemgetter(slice(3, 4)))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(tmp_path))
    return tmp_path


def test_built_once_then_read(folder):
    build = Builder()
    first = kept("table", "f" * 40, build, (Table,))
    again = kept("table", "f" * 40, build, (Table,))
    assert build.builds == 1
    assert again == first and again is not first
    assert again.gather([0, 1, 2, 3, 4]) == [3]
    assert [p.name for p in folder.iterdir()] == [f"table-{'f' * 20}.pickle"]


def test_other_code_rebuilds_and_replaces(folder):
    build = Builder()
    kept("table", "a" * 40, build, (Table,))
    kept("table", "b" * 40, build, (Table,))
    assert build.builds == 2
    assert [p.name for p in folder.iterdir()] == [f"table-{'b' * 20}.pickle"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # one bit flipped
        lambda data: b"",  # empty
        lambda data: b"not a kept file at all",
    ],
)
def test_a_damaged_file_is_rebuilt_not_trusted(folder, damage):
    build = Builder()
    expected = kept("table", "c" * 40, build, (Table,))
    (path,) = folder.iterdir()
    path.write_bytes(damage(path.read_bytes()))
    assert kept("table", "c" * 40, build, (Table,)) == expected
    assert build.builds == 2
    assert kept("table", "c" * 40, build, (Table,)) == expected  # the rewritten file is sound
    assert build.builds == 2


def test_a_file_asking_for_another_class_is_not_run(folder):
    """A sound checksum is not enough: the unpickler makes only the classes named."""
    build = Builder()
    kept("table", "d" * 40, build, (Table,))
    (path,) = folder.iterdir()
    payload = pickle.dumps(os.system)  # what a planted file could call
    path.write_bytes(MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    assert kept("table", "d" * 40, build, (Table,)) == build()


def test_keeping_off_and_unwritable_folders_still_answer(tmp_path, monkeypatch):
    build = Builder()
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, "none")
    kept("table", "e" * 40, build, (Table,))
    kept("table", "e" * 40, build, (Table,))
    assert build.builds == 2
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(blocker / "below"))  # not a folder
    assert kept("table", "e" * 40, build, (Table,)).rows == tuple(range(100))


def test_the_default_folder_is_the_users_not_the_packages(monkeypatch, tmp_path):
    monkeypatch.delenv(kept_module.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kept_module.cache_folder() == tmp_path / "odds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    folder = kept_module.cache_folder()
    assert folder is not None and "site-packages" not in str(folder)
    assert not str(folder).startswith(os.path.dirname(kept_module.__file__))
