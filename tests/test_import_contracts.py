"""The import contracts of pyproject.toml (import-linter) hold, and they do catch a breach.

The layers (docs/architecture.md): learning/classroom > learning > games > kanagame/classes >
kanagame/accounts, engines pure Python, kanagame/ (settings, urls, celery) imported by no app.
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))
PACKAGES = ("kanagame", "games", "learning")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"],
        cwd=cwd,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_contract_is_kept():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _copy_tree(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_a_games_module_importing_learning_breaks_the_layers(tmp_path):
    tree = _copy_tree(tmp_path)
    assert lint_imports(tree).returncode == 0  # the copy itself is clean
    (tree / "games" / "shortcut.py").write_text("from learning import selectors  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "games is not allowed to import learning" in result.stdout
    assert "games.shortcut -> learning.selectors" in result.stdout


def test_learning_importing_the_classroom_breaks_the_layers(tmp_path):
    tree = _copy_tree(tmp_path)
    with (tree / "learning" / "selectors.py").open("a") as selectors:
        selectors.write("\nfrom learning.classroom import selectors as _classroom  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "learning.selectors -> learning.classroom.selectors" in result.stdout


def test_an_engine_importing_django_breaks_purity(tmp_path):
    tree = _copy_tree(tmp_path)
    (tree / "games" / "engines" / "impure.py").write_text("import django  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "games.engines.impure -> django" in result.stdout


def test_the_classes_app_importing_games_breaks_the_layers(tmp_path):
    """kanagame.classes sits below games (tables hold foreign keys to it): it imports no app
    but accounts."""
    tree = _copy_tree(tmp_path)
    with (tree / "kanagame" / "classes" / "selectors.py").open("a") as selectors:
        selectors.write("\nfrom games.models import Table as _Table  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "kanagame.classes.selectors -> games.models" in result.stdout
