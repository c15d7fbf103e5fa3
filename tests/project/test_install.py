"""A wheel carries the paytables: installed (not editable) into a fresh venv, it works anywhere.

Builds the wheel (as pip does for `pip install .`), makes a
venv that sees this environment's dependencies but not this checkout, installs
the wheel alone, and runs the tool from a directory that is not the checkout.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.paths import ROOT


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def _see_this_environment_s_dependencies(python: Path) -> None:
    """Put this environment's site-packages on the new venv's path, after its own.

    A ``.pth`` line adds the folder but does not run the ``.pth`` files inside it, so this
    checkout's editable install (itself a ``.pth`` hook there) stays out, while typer, sympy …
    are found. (``system_site_packages`` would give the base interpreter's packages, which are
    not this environment's when the tests run in a virtual environment.)
    """
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=ROOT)
    folders = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site.stdout.strip(), "this-environment.pth").write_text(
        "".join(f"{folder}\n" for folder in sorted(folders)), encoding="utf-8"
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the wheel installed; returns its ``bin`` folder."""
    work = tmp_path_factory.mktemp("wheel")
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps",
        "-q", "-w", work / "dist", ROOT, cwd=work,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    wheel = next((work / "dist").glob("odds_exact-*.whl"))
    venv.create(work / "venv", with_pip=False)
    bin_dir = work / "venv" / "bin"
    _see_this_environment_s_dependencies(bin_dir / "python")
    done = _run(
        sys.executable, "-m", "pip", "--python", bin_dir / "python",
        "install", "--no-deps", "-q", wheel, cwd=work,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return bin_dir


def test_installed_wheel_finds_its_paytables_from_anywhere(installed: Path, tmp_path: Path):
    where = _run(installed / "python", "-c", "import odds; print(odds.__file__)", cwd=tmp_path)
    assert str(ROOT) not in where.stdout, "the venv must use the wheel, not this checkout"
    result = _run(installed / "odds", "report", "mahjong-28", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Paytable: `tables/mahjong-28.toml`" in result.stdout
    assert "(40 tiles): rule-book default" in result.stdout  # the paytable file's own title


def test_installed_reports_check_with_nothing_to_check_is_an_error(installed, tmp_path):
    result = _run(installed / "odds", "reports", "--check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: no reports/ folder")


def test_python_m_odds_from_the_parent_of_a_clone(tmp_path: Path):
    """A folder named ``odds`` in the working directory (a clone's root) must not break it."""
    (tmp_path / "odds").mkdir()
    (tmp_path / "odds" / "README.md").write_text("a clone\n", encoding="utf-8")
    result = _run(sys.executable, "-m", "odds", "--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("odds ")
