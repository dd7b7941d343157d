"""Django's SQLite backend, with the ``%s`` → ``?`` conversion of a statement kept (``base``)."""
