"""The backend's former path, for sessions signed in before it moved to ``kanagame.accounts``.

A session stores the dotted path of the backend that signed it in, and Django logs out a session
whose path is not in ``AUTHENTICATION_BACKENDS``. This path stays listed (last) so that nobody is
signed out by the move; it loads the user as the current backend does and never signs anyone in
(``authenticate`` answers None: the current backend, listed first, checks passwords).
"""

from kanagame.accounts.backends import UserRowBackend as _CurrentBackend


class UserRowBackend(_CurrentBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        return None
