"""``{% signin_links "login" as links %}``: the links apps above registered for a sign-in page
(kanagame/accounts/links.py)."""

from django import template

from kanagame.accounts.links import SignInLink, signin_links

register = template.Library()


@register.simple_tag(name="signin_links")
def signin_links_tag(page: str) -> list[SignInLink]:
    return signin_links(page)
