"""A board's page loads the static files its presenter declares, and no other game's
(templates/games/table.html names no game: ``BoardPresenter.stylesheets`` / ``scripts``)."""

import pytest

from games.boards import presenter_for
from games.engines import ENGINES, get_engine
from games.services.tables import table_create

DECLARED = {
    path
    for name in ENGINES
    for path in (*presenter_for(name).stylesheets, *presenter_for(name).scripts)
}


def test_the_boards_that_need_their_own_files_declare_them():
    assert "js/bozu-speech.js" in presenter_for("bozu").scripts
    assert "css/bozu.css" in presenter_for("bozu").stylesheets
    assert "css/kazoku.css" in presenter_for("kazoku-words").stylesheets


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_board_loads_its_own_static_files_only(name, dana, client):
    eng = get_engine(name)
    bots = [{"kind": "bot", "level": "easy"}] * (eng.MIN_PLAYERS - 1)
    table = table_create(
        user=dana, engine=name, options={}, seats=[{"kind": "human", "user": dana}, *bots]
    )
    client.force_login(dana)
    page = client.get(table.get_absolute_url()).content.decode()
    presenter = presenter_for(name)
    own = {*presenter.stylesheets, *presenter.scripts}
    for path in DECLARED:
        assert (f"/static/{path}" in page) == (path in own), (name, path)
    for path in presenter.scripts:
        assert f'<script src="/static/{path}" defer></script>' in page
