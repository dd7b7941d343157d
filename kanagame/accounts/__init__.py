"""Accounts: users and their roles, sign-up, login and its rate limit (app label "accounts").

The bottom layer of the apps: every app may import it; it imports none of them.
"""
