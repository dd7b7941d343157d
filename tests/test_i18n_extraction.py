"""Translations cannot go missing: every module marks strings under names makemessages sees.

xgettext (behind ``makemessages``) only extracts calls spelled ``_``, ``gettext``,
``gettext_lazy``, ``ngettext``, ``pgettext``... An alias such as ``gettext_lazy as _lazy``
compiles and runs, but its strings never reach the catalogues: the page stays in English.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("kanagame", "learning", "games")


def product_modules() -> list[Path]:
    return sorted(
        path
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def aliased_translation_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name} as {alias.asname}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
        for alias in node.names
        if alias.asname not in (None, "_", alias.name)
    ]


def test_no_module_imports_a_translation_function_under_a_name_xgettext_ignores():
    assert len(product_modules()) > 100
    found = [line for path in product_modules() for line in aliased_translation_imports(path)]
    assert not found, "aliases makemessages never extracts:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "code, english, translated",
    [
        ("ja", "Class code", "クラスコード"),
        ("ja", "Your name in the class", "クラスで使う名前"),
        ("fr", "Title (optional)", "Titre (facultatif)"),
        ("fr", "Goal amount", "Objectif chiffré"),
        ("fr", "Names, one per line", "Noms, un par ligne"),
    ],
)
def test_the_classroom_forms_are_translated(code, english, translated):
    from learning.classroom.views.join import JoinForm
    from learning.classroom.views.teach.assignments import AssignmentForm
    from learning.classroom.views.teach.students import RosterForm

    with translation.override(code):
        labels = {
            str(field.label)
            for form in (JoinForm(), AssignmentForm(recommended=True), RosterForm())
            for field in form.fields.values()
        }
        assert translated in labels and english not in labels
