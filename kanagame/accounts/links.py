"""Links an app above accounts adds to the sign-in pages (one registration point).

Accounts sits at the bottom of the layers and knows no app above it, yet its log-in and sign-up
pages are where a student looks for the way into their class. The classroom registers that link
in its ``AppConfig.ready()``; the pages show what is registered (``{% signin_links page %}``).
"""

from __future__ import annotations

from dataclasses import dataclass

PAGES = ("login", "signup")


@dataclass(frozen=True)
class SignInLink:
    page: str  # "login" or "signup"
    url_name: str
    text: str  # lazy translation: the link's text
    lead: str = ""  # lazy translation: words before the link ("Students:")


_LINKS: list[SignInLink] = []


def signin_link_register(link: SignInLink) -> None:
    if link.page not in PAGES:
        raise ValueError(f"unknown sign-in page {link.page!r}: {PAGES}")
    if link not in _LINKS:
        _LINKS.append(link)


def signin_links(page: str) -> list[SignInLink]:
    return [link for link in _LINKS if link.page == page]
