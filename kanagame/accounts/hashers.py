"""The password hasher: Argon2id with OWASP's recommended cost, sized for a school's server.

Django's own ``Argon2PasswordHasher`` uses 100 MiB and 8 lanes per hash: about 0.2 s of CPU
on our 2-core reference machine, so a class of 30 logging in at the start of a lesson queues
for seconds. OWASP's Password Storage Cheat Sheet lists equivalent Argon2id settings that
trade memory for passes; we take its first one (m = 19 MiB, t = 2, p = 1), which costs
about 25 ms per log-in here (docs/bench.md, "Log-in"). Hashes made with other parameters
(Django's defaults, PBKDF2 from before) are upgraded at the user's next successful log-in,
because Django re-hashes whenever ``must_update`` says the stored parameters differ.
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class SchoolArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
