"""Kept files (odds.runtime.kept): read back only when the user's, sound and of the same code.

Each test points the cache folder at a temporary one and counts the builds: a
kept value is built once, read afterwards, and built again (and replaced)
when its file is damaged, edited (its checksum recomputed), written by other
code, not a regular file of the user's, or in a folder others may write (issue
33, item 1). A planted named pipe or a link to ``/dev/zero`` must not hang or
fill memory: those run in a child process with a timeout.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import subprocess
import sys
import time
from operator import itemgetter
from pathlib import Path

import pytest

from odds.runtime import kept as kept_module
from odds.runtime.kept import MAGIC, decode, distrust, encode, kept

FINGERPRINT = "f" * 40
NAME = f"table-{'f' * 20}.json"


class Builder:
    """A value of the kinds the blackjack layouts hold: tuples shared, gathers, dicts."""

    def __init__(self) -> None:
        self.builds = 0

    def __call__(self) -> tuple[object, ...]:
        self.builds += 1
        row = tuple(range(100))
        return (row, row, {(1, 2): [itemgetter(0, 5), itemgetter(slice(3, 4))]}, frozenset({7}))


def same(one: tuple[object, ...], other: tuple[object, ...]) -> bool:
    """Equal values (gathers compared by what they take from a list)."""
    sample = list(range(10))
    gathers = [[g(sample) for g in value[2][(1, 2)]] for value in (one, other)]  # type: ignore[index]
    return one[:2] == other[:2] and one[3] == other[3] and gathers[0] == gathers[1]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(place))
    monkeypatch.setattr(kept_module, "_READ", set())
    monkeypatch.setattr(kept_module, "_DISTRUSTED", [])
    monkeypatch.setattr(kept_module, "_NOTED", set())
    return place


def keep(build: Builder, fingerprint: str = FINGERPRINT) -> tuple[object, ...]:
    return kept("table", fingerprint, build)


def test_built_once_then_read_from_a_private_folder(folder):
    build = Builder()
    first = keep(build)
    again = keep(build)
    assert build.builds == 1
    assert same(again, first) and again is not first
    assert again[0] is again[1]  # a part shared when written is shared when read
    assert sorted(p.name for p in folder.iterdir()) == ["key", NAME]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / NAME).stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "key").stat().st_mode) == 0o600


def test_other_code_rebuilds_and_replaces(folder):
    build = Builder()
    keep(build, "a" * 40)
    (folder / f"table-{'c' * 20}.pickle").write_bytes(b"an old format: never read")
    keep(build, "b" * 40)
    assert build.builds == 2
    assert sorted(p.name for p in folder.iterdir()) == ["key", f"table-{'b' * 20}.json"]


def test_no_pickle_is_ever_read():
    source = Path(kept_module.__file__).read_text(encoding="utf-8")
    assert "pickle" not in source.replace("``.pickle``", "").replace('".pickle"', "")


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:-2] + bytes([data[-2] ^ 1]) + data[-1:],  # one bit flipped
        lambda data: b"",  # empty
        lambda data: b"not a kept file at all",
    ],
)
def test_a_damaged_file_is_rebuilt_not_trusted(folder, damage):
    build = Builder()
    expected = keep(build)
    path = folder / NAME
    path.write_bytes(damage(path.read_bytes()))
    assert same(keep(build), expected)
    assert build.builds == 2
    assert same(keep(build), expected)  # the rewritten file is sound
    assert build.builds == 2


def _edited(path: Path, key: bytes | None) -> None:
    """Change one number of the kept value and recompute the first line: a SHA-256 (as the
    old format had it) without the key, the HMAC with it."""
    _header, _, payload = path.read_bytes().partition(b"\n")
    edited = payload.replace(b'{"f":[7]}', b'{"f":[8]}', 1)
    assert edited != payload
    if key is None:
        line = MAGIC + hashlib.sha256(edited).hexdigest().encode()
    else:
        signed = hmac.new(key, path.name.encode() + b"\0" + edited, "sha256")
        line = MAGIC + signed.hexdigest().encode()
    path.write_bytes(line + b"\n" + edited)


def test_an_edit_with_its_checksum_recomputed_is_rebuilt(folder):
    """Issue 33: the old format trusted any file whose checksum line matched its contents."""
    build = Builder()
    expected = keep(build)
    _edited(folder / NAME, None)
    assert same(keep(build), expected) and build.builds == 2


def test_a_file_signed_with_another_key_or_for_another_name_is_rebuilt(folder):
    build = Builder()
    expected = keep(build)
    _edited(folder / NAME, os.urandom(32))  # another folder's key: copied from another user
    assert same(keep(build), expected) and build.builds == 2
    # a sound file of another value, renamed as this one: its name is part of what is signed
    other = Builder()
    kept("other", FINGERPRINT, other)
    os.replace(folder / f"other-{'f' * 20}.json", folder / NAME)
    assert same(keep(build), expected) and build.builds == 3


def test_the_users_own_edit_signed_with_the_key_is_read(folder):
    """The key shows a file was written under this account; what such a file holds is then
    checked where it is used (blackjack: the dealer's probabilities add up; a failure calls
    :func:`distrust`, test below and tests/games/blackjack/test_blackjack_kept.py)."""
    build = Builder()
    keep(build)
    _edited(folder / NAME, (folder / "key").read_bytes())
    assert keep(build)[3] == frozenset({8}) and build.builds == 1


def test_distrust_removes_what_was_read_and_builds_from_then_on(folder, capsys):
    build = Builder()
    assert not distrust("nothing read yet")  # built in this process: not a kept file's fault
    keep(build)
    keep(build)
    assert build.builds == 1
    assert distrust("a total did not add up")
    assert capsys.readouterr().err.count("\n") == 1
    assert not (folder / NAME).exists()
    keep(build)
    keep(build)
    assert build.builds == 3  # nothing read any more in this process
    assert (folder / NAME).exists()  # the files are written anew


def _child(folder: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """A fresh process keeping a value in ``folder``; a hang fails the test at ``timeout``."""
    code = (
        "from odds.runtime.kept import kept\n"
        "print(kept('table', 'f' * 40, lambda: tuple(range(5))))\n"
    )
    env = {**os.environ, kept_module.CACHE_VARIABLE: str(folder)}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout
    )


def test_a_named_pipe_planted_as_a_kept_file_does_not_hang(folder):
    assert _child(folder).stdout == "(0, 1, 2, 3, 4)\n"
    path = folder / NAME
    path.unlink()
    os.mkfifo(path)
    done = _child(folder)
    assert done.stdout == "(0, 1, 2, 3, 4)\n" and done.stderr == ""
    assert path.is_file()  # replaced by a sound file


def test_a_link_to_dev_zero_is_not_followed(folder):
    _child(folder)
    path = folder / NAME
    path.unlink()
    path.symlink_to("/dev/zero")
    done = _child(folder, timeout=20)
    assert done.stdout == "(0, 1, 2, 3, 4)\n" and done.stderr == ""
    assert path.is_file() and not path.is_symlink()
    assert Path("/dev/zero").is_char_device()


def test_a_link_to_a_sound_file_elsewhere_is_not_followed(folder, tmp_path):
    build = Builder()
    keep(build)
    elsewhere = tmp_path / "elsewhere.json"
    os.replace(folder / NAME, elsewhere)
    (folder / NAME).symlink_to(elsewhere)
    keep(build)
    assert build.builds == 2


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_file_others_may_write_is_rebuilt(folder, mode):
    build = Builder()
    keep(build)
    (folder / NAME).chmod(mode)
    keep(build)
    assert build.builds == 2
    assert stat.S_IMODE((folder / NAME).stat().st_mode) == 0o600


def test_a_file_with_a_second_name_is_rebuilt(folder, tmp_path):
    """A hard link: someone holding the other name could change it."""
    build = Builder()
    keep(build)
    os.link(folder / NAME, tmp_path / "other-name")
    keep(build)
    assert build.builds == 2


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_file_of_another_user_is_rebuilt(folder):
    build = Builder()
    keep(build)
    os.chown(folder / NAME, 12345, 12345)
    keep(build)
    assert build.builds == 2 and (folder / NAME).stat().st_uid == 0


def test_a_file_too_large_is_not_read(folder, monkeypatch):
    build = Builder()
    keep(build)
    monkeypatch.setattr(kept_module, "MOST_BYTES", 100)
    keep(build)
    assert build.builds == 2


def test_a_key_others_may_read_is_replaced(folder):
    build = Builder()
    keep(build)
    key = (folder / "key").read_bytes()
    (folder / "key").chmod(0o644)
    keep(build)
    assert build.builds == 2
    assert (folder / "key").read_bytes() != key
    keep(build)
    assert build.builds == 2  # the new key signs the rewritten file


def test_a_named_pipe_planted_as_the_key_does_not_hang(folder):
    folder.mkdir(mode=0o700)
    os.mkfifo(folder / "key")
    assert _child(folder).stdout == "(0, 1, 2, 3, 4)\n"
    assert (folder / "key").is_file()


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_folder_others_may_write_is_not_used(folder, capsys, mode):
    folder.mkdir()
    folder.chmod(mode)
    build = Builder()
    keep(build)
    keep(build)
    assert build.builds == 2 and list(folder.iterdir()) == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "may be written by others" in err and str(folder) in err


def test_a_folder_others_may_write_is_not_read_either(folder, capsys):
    build = Builder()
    keep(build)
    folder.chmod(0o777)  # someone could have planted what is in it
    keep(build)
    assert build.builds == 2


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_folder_of_another_user_is_not_used(folder, capsys):
    build = Builder()
    keep(build)
    os.chown(folder, 12345, 12345)
    keep(build)
    assert build.builds == 2
    assert "belongs to another user" in capsys.readouterr().err


def test_a_folder_that_is_a_link_is_not_used(tmp_path, monkeypatch, capsys):
    real = tmp_path / "real"
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(real))
    build = Builder()
    keep(build)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(link))
    keep(build)
    assert build.builds == 2
    assert "symbolic link" in capsys.readouterr().err


def test_a_folder_others_may_only_read_is_made_private(folder):
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    build = Builder()
    keep(build)
    keep(build)
    assert build.builds == 1
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_killed_writers_temporary_files_are_removed(folder):
    keep(Builder())
    old = folder / f".{NAME}.0123456789ab.tmp"
    young = folder / f".{NAME}.ba9876543210.tmp"
    other = folder / "notes.tmp"
    for path in (old, young, other):
        path.write_bytes(b"x")
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    keep(Builder(), "e" * 40)  # a write in the folder
    assert not old.exists() and young.exists() and other.exists()


def test_keeping_off_and_unwritable_folders_still_answer(tmp_path, monkeypatch):
    build = Builder()
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, "none")
    keep(build)
    keep(build)
    assert build.builds == 2
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(kept_module.CACHE_VARIABLE, str(blocker / "below"))  # not a folder
    assert keep(build)[0] == tuple(range(100))


def test_a_value_that_is_not_data_is_used_not_kept(folder):
    class Table:
        pass

    made = kept("object", FINGERPRINT, Table)
    assert isinstance(made, Table)
    assert not any(p.name.startswith("object-") for p in folder.iterdir())


def test_the_default_folder_is_the_users_not_the_packages(monkeypatch, tmp_path):
    monkeypatch.delenv(kept_module.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kept_module.cache_folder() == tmp_path / "odds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    folder = kept_module.cache_folder()
    assert folder is not None and "site-packages" not in str(folder)
    assert not str(folder).startswith(os.path.dirname(kept_module.__file__))


# ---------------------------------------------------------------------------
# The data format


def test_the_format_round_trips_the_kinds_it_knows():
    shared = (1, 2)
    gather = itemgetter(2, 0)
    value = {
        shared: [shared, (shared, shared)],
        "text": (None, True, -(10**30), frozenset({shared})),
        "gathers": (gather, gather, itemgetter(slice(1, 2))),
        "slice": slice(None, 5, 2),
    }
    again = decode(encode(value))
    assert again[(1, 2)] == [(1, 2), ((1, 2), (1, 2))]
    assert again["text"] == (None, True, -(10**30), frozenset({(1, 2)}))
    first, second, one = again["gathers"]
    assert first is second and first("abc") == ("c", "a") and one([5, 6, 7]) == [6]
    assert again["slice"] == slice(None, 5, 2)
    key = next(k for k in again if type(k) is tuple)
    assert again[key][0] is key  # shared when written, shared when read


@pytest.mark.parametrize(
    "payload",
    [
        b'{"o": "os.system"}',  # no class, no function is ever looked up
        b'{"t": [1], "g": [2]}',  # one tag per object
        b'{"g": ["__class__"]}',  # a gather takes positions only
        b'{"g": [{"s": [0, 1, null]}, 2]}',
        b'{"g": []}',
        b'{"s": [0, 1.5, null]}',
        b"[1.5]",  # integers only
        b"[NaN]",
        b'{"d": [1]}',
        b'{"r": 0}',  # a reference to nothing written before
        b'{"f": [[1]]}',  # a set of lists
        b"[" * 100000 + b"]" * 100000,  # nested too deep
        b"\xff",
    ],
)
def test_the_format_refuses_anything_else(payload):
    with pytest.raises((ValueError, TypeError, RecursionError)):
        decode(payload + b"\n")


@pytest.mark.parametrize(
    "payload",
    [
        b"[1]",  # no newline before the integers
        b'{"b": [0, 2]}\n' + bytes(5),  # integers of four bytes each
        b'{"b": [1, 2]}\n' + bytes(8),  # a run beyond the stored integers
        b'{"b": [-1, 1]}\n' + bytes(8),
        b'{"b": [0, 1, 2]}\n' + bytes(8),
        b'{"t": {"b": [0, "1"]}}\n' + bytes(8),
        b'{"m": [3, {"b": [0, 2]}]}\n' + bytes(8),  # rows of no one width
        b'{"m": [0, {"b": [0, 2]}]}\n' + bytes(8),
        b'{"m": [1, [1, 2]]}\n' + bytes(8),
        b'{"l": [1, 2]}\n',
    ],
)
def test_the_stored_integers_are_checked(payload):
    with pytest.raises(ValueError):
        decode(payload)


def test_rows_of_integers_are_stored_after_the_json_and_stay_shared():
    rows = [(i, -i, 2**20) for i in range(20)]
    value = (rows, tuple(rows), rows[3], {rows[5]: rows[5]})
    payload = encode(value)
    text, _, stored = payload.partition(b"\n")
    assert len(stored) == 4 * 3 * 20 and b'"M"' in text and b'"m"' not in text
    again = decode(payload)
    assert again[0] == rows and again[1] == tuple(rows) and again[2:] == value[2:]
    assert again[2] is again[0][3]  # a row referred to later is the row itself
    ((key, item),) = again[3].items()
    assert key is item is again[0][5]
    plain = decode(encode([(i, i) for i in range(20)]))
    assert plain == [(i, i) for i in range(20)]


def test_long_runs_of_integers_are_stored_after_the_json():
    value = (tuple(range(-5, 100)), list(range(20)), itemgetter(*range(30)), 2**40, [1, 2])
    payload = encode(value)
    stored = payload.partition(b"\n")[2]
    assert len(stored) == 4 * (105 + 20 + 30)
    again = decode(payload)
    assert again[0] == value[0] and again[1] == value[1] and again[3:] == value[3:]
    assert again[2](range(40)) == tuple(range(30))


def test_a_value_of_another_kind_is_not_encoded():
    with pytest.raises(TypeError):
        encode((1, 2.5))
    with pytest.raises(TypeError):
        encode([object()])


def test_a_kept_file_is_json_with_a_signed_first_line(folder):
    keep(Builder())
    header, _, payload = (folder / NAME).read_bytes().partition(b"\n")
    assert header.startswith(MAGIC) and len(header) == len(MAGIC) + 64
    text, _, stored = payload.partition(b"\n")
    json.loads(text)
    assert len(stored) == 4 * 100  # the row of 100 integers, stored once (it is shared)
