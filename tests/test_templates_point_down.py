"""Templates include and link only downward (ARCHITECTURE §1), as Python imports do.

A template belongs to the app of its folder; what it includes (a template path) and the URL
names it links to (``{% url 'name' %}``, resolved to the view's module) belong to an app too.
A lower app's template pointing at a higher app's template or page fails, so the layers the
import linter keeps in Python hold in the templates: an app above reaches a page below through
a registered panel or link (``games.hooks``, ``kanagame.accounts.links``), not by name.
"""

import re
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"

# app rank: imports and templates point from a higher rank to a lower one
ACCOUNTS, GAMES, LEARNING, CLASSROOM = 0, 1, 2, 3
FOLDERS = {
    "accounts": ACCOUNTS,
    "registration": ACCOUNTS,
    "games": GAMES,
    "learn": LEARNING,
    "daily": LEARNING,
    "teach": CLASSROOM,
    "classroom": CLASSROOM,
    "join": CLASSROOM,
}
# what still points up: work left in issue 23 (the list only shrinks)
KNOWN: set[tuple[str, str]] = set()

INCLUDE = re.compile(r"""{%\s*(?:include|extends)\s+["']([^"']+)["']""")
URL = re.compile(r"""{%\s*url\s+["']([^"']+)["']""")


def _owner_of_template(name: str) -> int | None:
    """The app of a template path; None for the site's own (base, home, error pages)."""
    folder = name.split("/", 1)[0] if "/" in name else ""
    return FOLDERS.get(folder)


def _owner_of_module(module: str) -> int | None:
    if module.startswith("kanagame.accounts"):
        return ACCOUNTS
    if module.startswith("games"):
        return GAMES
    if module.startswith("learning.classroom"):
        return CLASSROOM
    if module.startswith("learning"):
        return LEARNING
    return None  # kanagame/ wires the site: its pages (home) may be linked from anywhere


def _url_modules(resolver=None, namespace="") -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found.update(_url_modules(entry, inner))
        elif isinstance(entry, URLPattern) and entry.name:
            found[f"{namespace}{entry.name}"] = entry.lookup_str.rsplit(".", 1)[0]
    return found


def _upward() -> set[tuple[str, str]]:
    modules = _url_modules()
    found = set()
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        owner = _owner_of_template(name)
        if owner is None:
            continue
        text = path.read_text(encoding="utf-8")
        for target in INCLUDE.findall(text):
            rank = _owner_of_template(target)
            if rank is not None and rank > owner:
                found.add((name, target))
        for url_name in URL.findall(text):
            module = modules.get(url_name)
            assert module is not None, f"{name}: no URL named {url_name!r}"
            rank = _owner_of_module(module)
            if rank is not None and rank > owner:
                found.add((name, url_name))
    return found


def test_templates_include_and_link_only_downward():
    found = _upward()
    assert found - KNOWN == set(), f"templates pointing up: {sorted(found - KNOWN)}"
    assert KNOWN - found == set(), f"fixed, take them off KNOWN: {sorted(KNOWN - found)}"


def test_the_url_map_sees_each_apps_pages():
    modules = _url_modules()
    assert _owner_of_module(modules["join"]) == CLASSROOM
    assert _owner_of_module(modules["learn:dashboard"]) == LEARNING
    assert _owner_of_module(modules["login"]) == ACCOUNTS


def test_the_sign_in_pages_show_the_registered_link_and_name_no_class(client, monkeypatch):
    """The log-in page's way into a class comes from the classroom's registration: without
    it, accounts' pages have no such link (the site's menu, which is not accounts', keeps its
    own)."""
    login_link = '<a href="/join/">join your class with its code</a>'
    signup_link = '<a href="/join/">Join a class</a></p>'
    assert login_link in client.get("/login/").content.decode()
    assert signup_link in client.get("/signup/").content.decode()
    from kanagame.accounts import links

    monkeypatch.setattr(links, "_LINKS", [])
    assert login_link not in client.get("/login/").content.decode()
    assert signup_link not in client.get("/signup/").content.decode()


def test_a_kana_of_the_grid_links_to_the_page_of_whoever_shows_it(client, alice, bob):
    classroom = bob.memberships.get().classroom
    client.force_login(alice)
    page = client.get(f"/teach/{classroom.pk}/students/{bob.pk}/").content.decode()
    assert f'href="/teach/{classroom.pk}/kana/hiragana/a/"' in page
    client.force_login(bob)
    assert 'href="/learn/kana/hiragana/a/"' in client.get("/learn/").content.decode()
