"""The Koi-Koi yaku judge and multipliers, with hand-built capture piles.

Default rules = §1 of shared/data/koikoi_yaku.md (its worked examples are tested verbatim);
every §3 variant exposed as a setting is tested against the default it changes.
"""

import pytest

from games.engines.koikoi import YAKU, YAKU_IDS, final_score, score_yaku

CRANE, CURTAIN, MOON, RAIN_MAN, PHOENIX = (
    "matsu-tsuru", "sakura-maku", "susuki-tsuki", "yanagi-michikaze", "kiri-hoo",
)  # fmt: skip
CUP, BOAR, DEER, BUTTERFLIES = "kiku-sakazuki", "hagi-inoshishi", "momiji-shika", "botan-cho"
OTHER_ANIMALS = ["ume-uguisu", "fuji-hototogisu", "ayame-yatsuhashi", "susuki-kari"]
SWALLOW = "yanagi-tsubame"
AKATAN = ["matsu-akatan", "ume-akatan", "sakura-akatan"]
AOTAN = ["botan-aotan", "kiku-aotan", "momiji-aotan"]
PLAIN = ["fuji-tanzaku", "ayame-tanzaku", "hagi-tanzaku", "yanagi-tanzaku"]
CHAFF = [
    "matsu-chaff-1", "matsu-chaff-2", "ume-chaff-1", "ume-chaff-2", "sakura-chaff-1",
    "sakura-chaff-2", "fuji-chaff-1", "fuji-chaff-2", "ayame-chaff-1", "ayame-chaff-2",
    "botan-chaff-1", "botan-chaff-2",
]  # fmt: skip
LIGHTNING = "yanagi-kasu"


def test_the_table_is_data_with_every_documented_yaku():
    assert set(YAKU_IDS) >= {
        "goko", "shiko", "ame_shiko", "sanko", "hanami_zake", "tsukimi_zake", "inoshikacho",
        "akatan", "aotan", "akatan_aotan", "tane", "tan", "kasu", "teshi", "kuttsuki",
        "tsukifuda",
    }  # fmt: skip
    assert all(isinstance(row, dict) and "group" in row for row in YAKU)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ([CRANE, CURTAIN, MOON, RAIN_MAN, PHOENIX], [("goko", 10)]),
        ([CRANE, CURTAIN, MOON, PHOENIX], [("shiko", 8)]),
        ([CRANE, CURTAIN, MOON, RAIN_MAN], [("ame_shiko", 7)]),
        ([CRANE, CURTAIN, PHOENIX], [("sanko", 5)]),
        ([CRANE, CURTAIN, RAIN_MAN], []),  # the rain man + 2 brights scores nothing
        ([CURTAIN, CUP], [("hanami_zake", 5)]),
        ([MOON, CUP], [("tsukimi_zake", 5)]),
        ([BOAR, DEER, BUTTERFLIES], [("inoshikacho", 5)]),
        ([BOAR, DEER, BUTTERFLIES, SWALLOW], [("inoshikacho", 6)]),
        (OTHER_ANIMALS + [SWALLOW], [("tane", 1)]),
        (OTHER_ANIMALS + [SWALLOW, BOAR, CUP], [("tane", 3)]),
        (AKATAN, [("akatan", 5)]),
        (AOTAN, [("aotan", 5)]),
        (AKATAN + AOTAN, [("akatan_aotan", 10)]),
        (AKATAN + AOTAN + PLAIN[:1], [("akatan_aotan", 11)]),
        (PLAIN + AKATAN[:1], [("tan", 1)]),
        (PLAIN + AKATAN[:2], [("tan", 2)]),
        (CHAFF[:10], [("kasu", 1)]),
        (CHAFF[:12], [("kasu", 3)]),
        (CHAFF[:9] + [CUP], []),  # the cup is an animal only by default
        ([CRANE, CURTAIN], []),
    ],
)
def test_each_default_yaku(cards, expected):
    assert score_yaku(cards) == expected


def test_section_1_worked_examples():
    # 猪鹿蝶 plus 2 other animals: 5 + 2 = 7, doubled to 14 at shōbu
    pile = [BOAR, DEER, BUTTERFLIES, *OTHER_ANIMALS[:2]]
    assert score_yaku(pile) == [("inoshikacho", 7)]
    assert final_score(score_yaku(pile), False, {}) == 14
    # 赤短 plus 2 plain ribbons: 5 + 2 = 7
    ribbons = AKATAN + PLAIN[:2]
    assert score_yaku(ribbons) == [("akatan", 7)]
    # the "older" variant: 5 for 赤短 plus 1 for タン with 5 ribbons = 6
    assert score_yaku(ribbons, {"stacking": "older"}) == [("akatan", 5), ("tan", 1)]
    assert sum(p for _y, p in score_yaku(ribbons, {"stacking": "older"})) == 6


def test_groups_keep_only_the_best_and_other_groups_add_up():
    pile = [CRANE, CURTAIN, MOON, CUP, BOAR, DEER, BUTTERFLIES, *AKATAN, *CHAFF[:10]]
    assert score_yaku(pile) == [
        ("sanko", 5), ("hanami_zake", 5), ("tsukimi_zake", 5), ("inoshikacho", 6),
        ("akatan", 5), ("kasu", 1),
    ]  # fmt: skip


def test_bright_points_15_6():
    options = {"bright_points": "15_6"}
    assert score_yaku([CRANE, CURTAIN, MOON, RAIN_MAN, PHOENIX], options) == [("goko", 15)]
    assert score_yaku([CRANE, CURTAIN, PHOENIX], options) == [("sanko", 6)]
    assert score_yaku([CRANE, CURTAIN, MOON, PHOENIX], options) == [("shiko", 8)]


def test_rain_man_in_three_brights_setting():
    assert score_yaku([CRANE, CURTAIN, RAIN_MAN], {"sanko_rain_man": True}) == [("sanko", 5)]
    assert score_yaku([CRANE, CURTAIN, MOON, RAIN_MAN], {"sanko_rain_man": True}) == [
        ("ame_shiko", 7)
    ]


@pytest.mark.parametrize(
    ("options", "cards", "expected"),
    [
        ({"viewing": "3"}, [CURTAIN, CUP], [("hanami_zake", 3)]),
        ({"viewing": "off"}, [CURTAIN, MOON, CUP], []),
        ({"viewing_rule": "with_other"}, [CURTAIN, CUP], []),
        (
            {"viewing_rule": "with_other"},
            [CURTAIN, CUP, *AKATAN],
            [("hanami_zake", 5), ("akatan", 5)],
        ),
        ({"viewing_rule": "rain"}, [MOON, CUP, RAIN_MAN], []),
        ({"viewing_rule": "rain"}, [MOON, CUP, LIGHTNING], []),
        ({"viewing_rule": "rain"}, [MOON, CUP, SWALLOW], [("tsukimi_zake", 5)]),
    ],
)
def test_viewing_settings(options, cards, expected):
    assert score_yaku(cards, options) == expected


def test_sake_cup_also_chaff():
    pile = CHAFF[:9] + [CUP]
    assert score_yaku(pile) == []
    assert score_yaku(pile, {"sake_cup": "both"}) == [("kasu", 1)]
    # and it still counts as an animal at the same time
    animals = OTHER_ANIMALS + [CUP]
    assert score_yaku(animals + CHAFF[:9], {"sake_cup": "both"}) == [("tane", 1), ("kasu", 1)]


def test_older_stacking():
    older = {"stacking": "older"}
    animals = [BOAR, DEER, BUTTERFLIES, *OTHER_ANIMALS[:2]]
    assert score_yaku(animals, older) == [("inoshikacho", 5), ("tane", 1)]
    assert score_yaku(AKATAN + AOTAN, older) == [("akatan", 5), ("aotan", 5), ("tan", 2)]


def test_cards_of_the_month():
    january = ["matsu-tsuru", "matsu-akatan", "matsu-chaff-1", "matsu-chaff-2"]
    assert score_yaku(january, {"tsukifuda": True}, month=1) == [("tsukifuda", 4)]
    assert score_yaku(january, {"tsukifuda": True}, month=2) == []
    assert score_yaku(january, {"tsukifuda": True, "month": 1}) == [("tsukifuda", 4)]
    assert score_yaku(january, month=1) == []  # off by default


def test_dealt_hands():
    teshi = ["matsu-tsuru", "matsu-akatan", "matsu-chaff-1", "matsu-chaff-2", *CHAFF[2:6]]
    pairs = CHAFF[:8]
    neither = [CRANE, *CHAFF[2:9]]
    assert score_yaku(teshi, {"dealt_hands": "score"}, dealt_hand=True) == [("teshi", 6)]
    assert score_yaku(pairs, {"dealt_hands": "score"}, dealt_hand=True) == [("kuttsuki", 6)]
    assert score_yaku(neither, {"dealt_hands": "score"}, dealt_hand=True) == []
    assert score_yaku(teshi, dealt_hand=True) == []  # off by default


def test_unknown_or_repeated_cards_are_refused():
    with pytest.raises(ValueError, match="not hanafuda"):
        score_yaku(["matsu-tsuru", "no-such-card"])
    with pytest.raises(ValueError, match="only once"):
        score_yaku(["matsu-tsuru", "matsu-tsuru"])


@pytest.mark.parametrize(
    ("base", "opponent", "own", "options", "expected"),
    [
        (6, False, 0, {}, 6),
        (7, False, 0, {}, 14),
        (6, True, 0, {}, 12),
        (7, True, 0, {}, 28),  # x4 at most
        (7, 3, 0, {}, 28),  # how many calls makes no difference
        (7, False, 0, {"double_at_seven": False}, 7),
        (5, False, 1, {"koikoi_bonus": "self"}, 10),
        (5, True, 0, {"koikoi_bonus": "self"}, 5),
        (5, False, 1, {"koikoi_bonus": "anyone"}, 10),
        (5, 1, 2, {"koikoi_bonus": "per_call"}, 20),
        (0, True, 0, {}, 0),
    ],
)
def test_multipliers(base, opponent, own, options, expected):
    assert final_score(base, opponent, options, own_koikoi_calls=own) == expected


def test_final_score_takes_the_yaku_list():
    assert final_score([("akatan", 5), ("kasu", 2)], False, None) == 14
