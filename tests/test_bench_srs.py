"""The SRS benchmarks measure what docs/bench.md says they measure."""

import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import srs_predict  # noqa: E402
import srs_sim  # noqa: E402


def test_every_arm_spends_the_same_learner_minutes_play_included():
    run = srs_sim.Run(minutes=6.0, game=4.0, exposure=0.1)
    rows = {arm: srs_sim.run_one(("average", arm, 0, 101, run)) for arm in srs_sim.ARMS}
    minutes = [row["minutes"] for row in rows.values()]
    assert max(minutes) <= 1.03 * min(minutes)
    assert rows["fsrs+game"]["play_minutes"] == rows["kanagame"]["play_minutes"] == 120.0
    assert rows["fsrs"]["play_minutes"] == 0.0
    assert all(0.0 <= row["recall"] <= 1.0 for row in rows.values())


def test_the_exposure_effect_reaches_every_arm_that_plays_and_only_those():
    """Over a few learners (one learner's day-44 recall at 6 min/day is a handful of kana, and
    exposure draws from the same generator, so one learner alone can go either way)."""

    def recall(arm, exposure, seeds=(1, 2, 3, 4)):
        run = srs_sim.Run(minutes=6.0, game=4.0, exposure=exposure)
        return sum(srs_sim.run_one(("average", arm, s, 101, run))["recall"] for s in seeds)

    assert recall("fsrs+game", 0.25) > recall("fsrs+game", 0.0)
    assert recall("fsrs", 0.25, seeds=(1,)) == recall("fsrs", 0.0, seeds=(1,))


def test_scores_of_the_prediction_bench():
    rows = [
        {"p": 0.9, "correct": True},
        {"p": 0.8, "correct": True},
        {"p": 0.3, "correct": False},
        {"p": 0.8, "correct": False},
    ]
    # right answers ranked above wrong ones: 0.9 > 0.8, 0.3; 0.8 ties 0.8 (half)
    assert srs_predict.auc(rows, "p") == pytest.approx((2 + 1.5) / 4)
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.7) + math.log(0.2)) / 4
    assert srs_predict.log_loss(rows, "p") == pytest.approx(expected)
    table = srs_predict.reliability(rows, "p")
    assert [(r["bin"], r["n"]) for r in table] == [("0.3-0.4", 1), ("0.8-0.9", 2), ("0.9-1.0", 1)]
    perfect = [{"p": 0.5, "correct": i % 2 == 0} for i in range(10)]
    assert srs_predict.calibration_rmse(perfect, "p") == pytest.approx(0.0)


def test_the_replay_predicts_before_each_answer_with_the_products_code():
    from learning import srs

    events = [
        {"learner": (1, 0), "day": 0.0, "kana": "shi", "script": "katakana", "kind": "quiz_choice",
         "choices": 4, "correct": True, "ms": 3000},
        {"learner": (1, 0), "day": 0.5, "kana": "shi", "script": "katakana", "kind": "typed",
         "choices": 0, "correct": True, "ms": 3000},
    ]  # fmt: skip
    srs_predict.replay(events)
    assert events[0]["model"] == pytest.approx(srs.UNSEEN_RECALL + (1 - srs.UNSEEN_RECALL) / 4)
    # half a day after one right pick: between the unseen prior and certainty
    assert srs.UNSEEN_RECALL < events[1]["model"] < 1 - srs.PREDICTION_FLOOR


def _event(day, correct, kind="quiz_choice", choices=4):
    return {"learner": (101, 0), "day": day, "kana": "shi", "script": "katakana", "kind": kind,
            "choices": choices, "correct": correct, "ms": 3000}  # fmt: skip


def test_the_replay_records_what_the_diagnosis_groups_by():
    from learning import srs

    events = [_event(0.0, False), _event(0.001, False), _event(0.9, True), _event(1.9, True)]
    srs_predict.replay(events, decays={"fsrs_decay": srs_predict.TUNE_DECAYS[0]})
    first, again, next_day, later = events
    assert first["stability"] is None and first["elapsed"] is None
    assert again["after_wrong"] and next_day["after_wrong"] and not later["after_wrong"]
    assert next_day["elapsed"] == pytest.approx(0.899)
    # failed twice, asked the next day: the product's decay predicts lower than fsrs' own
    assert next_day["model"] < next_day["fsrs_decay"] - 0.05
    # fsrs' own decay is the default scheduler's w20: the "before" column of --diagnose
    assert srs_predict.TUNE_DECAYS[0] == srs.scheduler_build(fuzzing=False).parameters[20]


def test_the_decay_is_tuned_on_development_seeds_and_never_on_held_out_ones():
    assert not set(srs_sim.DEV_SEEDS) & set(srs_sim.HELD_OUT_SEEDS)
    for seeds in ("2026", "101,2027", "999"):  # an allow-list: unknown seeds are refused too
        with pytest.raises(SystemExit):
            srs_predict.main(["--tune", "--seeds", seeds, "--learners", "1", "--processes", "1"])
        with pytest.raises(SystemExit):  # the calibration is fitted on them only too
            srs_predict.main(["--fit", "--seeds", seeds, "--learners", "1", "--processes", "1"])
        with pytest.raises(SystemExit):
            srs_sim.main(["--tune", "--seeds", seeds, "--learners", "1", "--processes", "1"])
    events = srs_predict._events_of((0, srs_sim.DEV_SEEDS[0], "average", 0.1, True))
    found = srs_predict.tune(events)
    assert found["best"] in srs_predict.TUNE_DECAYS
    pooled = {decay: row["pooled"] for decay, row in found["table"].items()}
    assert pooled[found["best"]] == min(pooled.values())
    assert set(found["table"][found["best"]]) >= {"pooled", "quiz_choice"}


def test_the_diagnosis_compares_the_model_with_fsrs_own_decay_per_group():
    events = srs_predict._events_of((1, srs_sim.DEV_SEEDS[0], "average", 0.1, True))
    found = srs_predict.diagnose(events)
    quiz = found["quiz_choice"]
    assert set(quiz["calibration_error"]) == {"model", "fsrs_decay"}
    groups = quiz["groups"]
    counted = {label: groups.get(label, {"n": 0})["n"] for label in groups}
    # issue 27: after a right answer a kana is asked typed, so quiz choices follow wrong ones
    assert counted.get("after a right answer", 0) == 0
    assert (
        groups["after a wrong answer"]["n"]
        == sum(row["n"] for row in quiz["reliability"]["model"])
        - groups.get("first answer", {"n": 0})["n"]
    )
    for group in groups.values():
        assert 0.0 <= group["p_true"] <= 1.0 and 0.0 <= group["recall_true"] <= 1.0


def test_flashcards_learn_new_cards_as_anki_does():
    """A new card is studied, reviewed once a minute or more later (never Easy there), and
    first reviewed again the next day at the earliest (issue 27: no 8-day first interval
    from an Easy seconds after the study)."""
    world = srs_sim.WORLDS[0]
    learner = srs_sim.learner_make(world, 0, srs_sim.DEV_SEEDS[0])
    schedule = srs_sim.FsrsCards()
    cards = srs_sim.Flashcards(world, learner, schedule)
    cards.session(0.0, 10 * 60.0)
    assert learner.studies >= srs_sim.NEW_PER_DAY
    first_steps = {pair: card for pair, card in schedule.cards.items() if card.last_review}
    assert first_steps  # the learning step came within the session
    for card in first_steps.values():
        assert card.last_review >= srs_sim._moment(srs_sim.LEARNING_STEP_MIN / 1440)
        assert srs_sim._moment(1.0) <= card.due <= srs_sim._moment(4.0)  # not 8 days out


def test_the_simulated_loop_is_the_products_daily_session():
    """Lesson, warm-up, then the game: no quiz after the game; typed recall once the last
    answer was right; a first prompt on a kana never taught costs a study."""
    world = srs_sim.WORLDS[0]
    learner = srs_sim.learner_make(world, 0, srs_sim.DEV_SEEDS[0])
    events: list[dict] = []
    run = srs_sim.Run(minutes=10.0, game=4.0, exposure=0.1)
    loop = srs_sim.Product(world, learner, run, recorder=events)
    assert loop.cost(("ka", "katakana")) == srs_sim.COST_STUDY_NEW
    for day in range(5):
        loop.day(day)
    # the product's order (daily.play_first_rule): the first day's lesson and warm-up, then
    # the game; from the second day on the game first (no backlog at 10/4 in these days)
    assert loop.orders == {0: "warm-up first", **{day: "game first" for day in range(1, 5)}}
    first = {day: loop.orders[day] == "game first" for day in range(5)}
    game = {day: (day + (0 if first[day] else 6 * 60 / 86400)) for day in range(5)}
    warmup = {day: (day + (4 * 60 / 86400 if first[day] else 0)) for day in range(5)}
    for event in events:
        day = int(event["day"])
        if event["kind"] == "quiz_choice":
            assert warmup[day] <= event["day"] < warmup[day] + 6 * 60 / 86400
        if event["kind"] == "play_prompt":
            assert game[day] <= event["day"] < game[day] + 4 * 60 / 86400
    last: dict = {}
    recall_kinds: dict = {}
    for event in sorted(events, key=lambda e: e["day"]):
        pair = (event["kana"], event["script"])
        assert (event["kind"] in ("typed", "write")) == (last.get(pair) is True)
        if event["kind"] == "write":  # writing only in the warm-up, after a typed answer
            day = int(event["day"])
            assert warmup[day] <= event["day"] < warmup[day] + 6 * 60 / 86400
            assert recall_kinds[pair][-1] == "typed" and "typed" in recall_kinds[pair]
            assert event["choices"] == 0 and event["answer_kind"] == "write"
        if event["kind"] in ("typed", "write"):
            recall_kinds.setdefault(pair, []).append(event["kind"])
        last[pair] = event["correct"]
    assert any(kinds.count("write") for kinds in recall_kinds.values())
    assert learner.kinds["write"] and learner.kinds["typed"]
    assert loop.introduced and all(  # taught before any question on them
        loop.introduced[(e["kana"], e["script"])] <= e["day"]
        for e in events
        if (e["kana"], e["script"]) in loop.introduced and e["kind"] != "play_prompt"
    )


def test_choices_get_no_discrimination_bonus_over_recall():
    assert srs_sim.D_CONTRAST_RIGHT == srs_sim.D_RECALL_RIGHT
    assert srs_sim.D_CONTRAST_WRONG == srs_sim.D_RECALL_WRONG


def test_the_sweep_has_a_repaired_fsrs_arm_in_every_cell_and_skips_play_longer_than_the_day():
    cells = srs_sim.cells_for(budgets=[6, 10], games=[4, 8], worlds=["average"], exposures=[0])
    assert [(b, g) for b, g, _w, _e in cells] == [(6, 4), (10, 4), (10, 8)]
    found = srs_sim.sweep(seeds=[101], learners=1, cells=cells[:1], processes=1)
    cell = found["6 min/4 play/average/exposure=0"]
    assert set(cell) >= {"fsrs", "fsrs+game", "kanagame", "kanagame_minus_fsrs"}
    assert cell["kanagame"]["minutes"] == pytest.approx(cell["fsrs"]["minutes"], rel=0.03)


def test_writing_answers_are_simulated_and_scored_like_the_other_kinds():
    """Issue 27: written answers exist in the simulated loop as the product asks them (after
    a typed answer, in the warm-up), cost COST_WRITE, and the prediction bench scores them and
    fits their calibration."""
    events = srs_predict._events_of((0, srs_sim.DEV_SEEDS[0], "average", 0.1, True))
    written = [e for e in events if e["kind"] == "write"]
    assert written and all(e["choices"] == 0 and e["answer_kind"] == "write" for e in written)
    assert "write" in srs_predict.KINDS
    found = srs_predict.fit(events)
    assert set(found) >= {"choice", "typed", "write", "taught_recall"}
    for group in ("choice", "typed", "write"):
        assert found[group]["log_loss"] <= found[group]["log_loss_uncalibrated"] + 1e-9
        weights = found[group]["weights"]
        assert weights[1] > 0 and weights[5] <= 0  # a longer wait never predicts higher
    assert srs_sim.COST_WRITE > srs_sim.COST_TYPED


def test_the_due_order_tool_tunes_on_development_seeds_and_swaps_only_the_due_kana():
    from datetime import UTC, datetime
    from types import SimpleNamespace

    import srs_due_order

    with pytest.raises(SystemExit, match="development seeds only"):
        srs_due_order.main(["--seeds", "2026", "--learners", "1"])
    with pytest.raises(SystemExit, match="unknown order"):
        srs_due_order.main(["--orders", "newest", "--seeds", "101", "--learners", "1"])
    # the tool runs the simulator's loop, whose warm-up passes the backlog rule's arguments
    srs_due_order.main(["--orders", "desc", "--seeds", "101", "--learners", "1",
                        "--processes", "1"])  # fmt: skip

    def cell(kana_id, state, r, due_day):
        return SimpleNamespace(
            kana_id=kana_id, script="hiragana", state=state, retrievability=r, weak=False,
            due=datetime(2026, 1, due_day, tzinfo=UTC), introduced_at=None, last_correct=True,
            last_review=None,
        )  # fmt: skip

    cells = [cell("a", "due", 0.2, 2), cell("ka", "due", 0.9, 3), cell("sa", "due", 0.5, 1),
             cell("ta", "learning", 0.7, 9)]  # fmt: skip

    def order(rule):
        return [c.kana_id for c in srs_due_order.quiz_order_with(rule)(cells)]

    product = [c.kana_id for c in srs_due_order.PRODUCT_ORDER(cells)]
    assert product == ["sa", "a", "ka", "ta"]  # by due date, then the rest
    assert order("asc") == ["a", "sa", "ka", "ta"]  # lowest retrievability first
    assert order("desc") == ["ka", "sa", "a", "ta"]
    assert order("desc:3") == product  # three due: not more than the backlog, the product's
    assert order("desc:2") == ["ka", "sa", "a", "ta"]
    with pytest.raises(SystemExit, match="unknown order"):
        srs_due_order.main(["--orders", "fsrs:3", "--seeds", "101", "--learners", "1"])
    # ``fsrs``: due by due date, then the others by due date, those reviewed today left out
    now = datetime(2026, 1, 5, 18, tzinfo=UTC)
    cells += [cell("na", "review", 0.95, 7), cell("ha", "review", 0.3, 8)]
    cells[3].last_review = datetime(2026, 1, 5, 0, 30, tzinfo=UTC)  # "ta": today, 17 h ago
    cells[-1].weak = True  # the product asks a weak kana before the others
    product = [c.kana_id for c in srs_due_order.PRODUCT_ORDER(cells, now=now)]
    assert product == ["sa", "a", "ka", "ha", "ta", "na"]  # weak, then lowest recall
    assert [c.kana_id for c in srs_due_order.fsrs_order(cells, now=now)] == [
        "sa", "a", "ka", "na", "ha"
    ]  # fmt: skip


def test_the_lesson_budget_tool_tunes_on_development_seeds_and_the_loop_runs_the_products_rule(
    monkeypatch,
):
    """Session 14: with the rule on, the simulated loop hands the product's ``lesson_plan`` the
    warm-up's seconds as the product would compute them (``warmup.warmup_seconds``: the goal's
    minutes less the last daily game's, ``DAILY_GAME_MINUTES`` before the first), and none
    with it off (the product: ``LESSON_BUDGET`` is off, not adopted)."""
    import srs_lesson_budget

    from learning.services import lesson, warmup

    with pytest.raises(SystemExit, match="development seeds only"):
        srs_lesson_budget.main(["--seeds", "2026", "--learners", "1"])
    with pytest.raises(SystemExit, match="unknown variant"):
        srs_lesson_budget.main(["--variants", "fast", "--seeds", "101", "--learners", "1"])
    assert srs_lesson_budget.rules_for("before") == srs_sim.Rules()  # the product: rule off
    assert not srs_sim.Rules().lesson_budget and not lesson.LESSON_BUDGET
    assert srs_lesson_budget.rules_for("budget") == srs_sim.Rules(lesson_budget=True)
    assert srs_lesson_budget.rules_for("budget:12").lesson_answer_seconds == 12.0

    seen = []

    def plan(**kwargs):
        seen.append((kwargs["review_seconds"], kwargs["answer_seconds"]))
        return lesson.lesson_plan(**kwargs)

    monkeypatch.setattr(srs_sim, "lesson_plan", plan)
    world = srs_sim.WORLDS[0]
    for rules, expected in (
        (srs_sim.Rules(lesson_budget=True), [360.0, 120.0, 120.0]),  # 10/8: day 0 counts 4
        (srs_sim.Rules(lesson_budget=False), [None, None, None]),
    ):
        learner = srs_sim.learner_make(world, 0, srs_sim.DEV_SEEDS[0])
        loop = srs_sim.Product(world, learner, srs_sim.Run(minutes=10.0, game=8.0, rules=rules))
        for day in range(3):
            seen.clear()
            loop.day(day)
            assert seen  # the lesson was asked every day
            given = {seconds for seconds, _answer in seen if seconds is not None}
            assert given == ({expected[day]} if expected[day] else set())
    assert warmup.warmup_seconds(goal_minutes=10, game_minutes=None) == 360.0

    # the rule changes what the loop does where the warm-up is short (6 min, 4 of play)
    def taught(rules):
        learner = srs_sim.learner_make(world, 1, srs_sim.DEV_SEEDS[0])
        loop = srs_sim.Product(world, learner, srs_sim.Run(minutes=6.0, game=4.0, rules=rules))
        for day in range(12):
            loop.day(day)
        return len(loop.introduced)

    monkeypatch.setattr(srs_sim, "lesson_plan", lesson.lesson_plan)
    assert taught(srs_sim.Rules(lesson_budget=True)) < taught(srs_sim.Rules())
    rows = [(0.5, 0.5, 0.4, 90), (0.7, 0.6, 0.6, 89)]
    found = srs_lesson_budget.figures(rows, base=[(0.4, 0, 0, 0), (0.5, 0, 0, 0)])
    assert found["minus_before"][0] == pytest.approx(15.0) and found["asked_min"] == 89


def test_the_script_balance_tool_tunes_on_development_seeds_and_moves_only_the_lagging_script():
    """Session 18: the rule puts the presets of the script remembered less first, only when no
    coverage reason leads and the gap is past the ratio; otherwise the product's ranking."""
    import srs_script_balance

    from learning import syllabus
    from learning.srs import KanaStatus

    with pytest.raises(SystemExit, match="development seeds only"):
        srs_script_balance.main(["--seeds", "2026", "--learners", "1"])
    with pytest.raises(SystemExit, match="unknown rule"):
        srs_script_balance.main(["--rules", "0.9:before", "--seeds", "101", "--learners", "1"])

    def statuses(hiragana: float, katakana: float):
        recall = {"hiragana": hiragana, "katakana": katakana}
        return {
            (k, s): KanaStatus(state="learning", retrievability=recall[s])
            for k, s in syllabus.syllabus()
        }

    def scripts(ranked):
        return [rec.options.get("script", "hiragana") for rec in ranked]

    engines = ("kazoku-families",)
    lagging = statuses(0.9, 0.5)
    product = srs_script_balance.PRODUCT_RANK(statuses=lagging, engines=engines)
    balanced = srs_script_balance.rank_with("0.9")(statuses=lagging, engines=engines)

    def presets(ranked):
        return sorted(sorted(rec.options.items()) for rec in ranked)

    assert presets(balanced) == presets(product)  # the same presets, reordered
    shown = scripts(balanced)
    first_other = min(i for i, s in enumerate(shown) if s != "katakana")
    assert shown[:first_other] and set(shown[:first_other]) == {"katakana"}
    assert "katakana" not in shown[first_other:]
    assert scripts(product) != shown  # the product ranks by need alone here
    # a gap within the ratio, or a coverage reason leading: the product's ranking
    level = statuses(0.9, 0.85)
    assert scripts(srs_script_balance.rank_with("0.9")(statuses=level, engines=engines)) == scripts(
        srs_script_balance.PRODUCT_RANK(statuses=level, engines=engines)
    )
    half = {pair: st for pair, st in lagging.items() if pair[1] == "hiragana"}
    covering = srs_script_balance.PRODUCT_RANK(statuses=half, engines=engines)
    assert covering[0].reason_key == "coverage"
    assert scripts(srs_script_balance.rank_with("0.9")(statuses=half, engines=engines)) == scripts(
        covering
    )


def test_the_simulated_warm_up_orders_its_quiz_with_the_products_warm_up_seconds(monkeypatch):
    """Session 18: the loop's quiz runs get the day's warm-up seconds as the product computes
    them from a goal in minutes (``warmup.warmup_seconds``: the daily game's default 4 minutes
    on day 0) and the product's backlog factor; ``--due-by-date`` passes no factor (the
    earlier order), and the rule changes what the loop asks where the warm-up is short."""
    from learning.services import quiz

    seen = []

    def order(cells, now=None, seconds=None, factor=quiz.BACKLOG_FACTOR, balance=None):
        seen.append((seconds, factor))
        return quiz.quiz_order(cells, now=now, seconds=seconds, factor=factor, balance=balance)

    monkeypatch.setattr(srs_sim, "quiz_order", order)
    world = srs_sim.WORLDS[0]
    learner = srs_sim.learner_make(world, 0, srs_sim.DEV_SEEDS[0])
    loop = srs_sim.Product(world, learner, srs_sim.Run(minutes=10.0, game=8.0))
    for day, expected in enumerate((360.0, 120.0, 120.0)):  # 10/8: day 0 counts 4 of play
        seen.clear()
        loop.day(day)
        assert seen and set(seen) == {(expected, quiz.BACKLOG_FACTOR)}
    assert srs_sim.main(["--due-by-date", "--minutes", "6", "--game", "4", "--worlds",
                         "average", "--exposure", "0.1", "--arms", "kanagame", "--learners",
                         "1", "--seeds", "101", "--processes", "1", "--json"])  # fmt: skip
    assert {factor for _seconds, factor in seen} >= {None}

    monkeypatch.setattr(srs_sim, "quiz_order", quiz.quiz_order)

    backlog = _asked_at_6_4(world, srs_sim.Rules())
    assert backlog != _asked_at_6_4(world, srs_sim.Rules(backlog_factor=None))


def test_the_backlog_order_tool_pairs_each_learner_with_the_earlier_order():
    import srs_backlog_order

    with pytest.raises(SystemExit, match="positive"):
        srs_backlog_order.main(["--factors", "0", "--learners", "1"])
    lines = srs_backlog_order.main(
        ["--factors", "1.5", "--learners", "1", "--seeds", "101", "--minutes", "6",
         "--processes", "1"]
    )  # fmt: skip
    assert lines[0] == "| cell | most overdue first | factor 1.5 |"
    rows = lines[2:]
    assert [row.split(" | ")[0] for row in rows] == [
        "| 6/4 average", "| 6/4 fast-forgetting", "| 6/4 confusion"
    ]  # fmt: skip
    # 2 minutes of warm-up: the rule binds, and what the learner remembers on day 44 moves
    assert any("+0.0 (" not in row.split(" | ")[2] for row in rows)


def test_the_simulated_game_asks_what_the_daily_table_asks():
    """Session 19: the daily table's mode asks a kana whatever its state once not answered
    right recently (``play.ASK_REMEMBERED``); the simulated loop's default follows the
    product, and the earlier rule (only kana new, due or weak) changes what it asks."""
    from learning.services import daily, play

    assert daily.DAILY_PROMPTS in play.ASK_REMEMBERED
    assert srs_sim.Rules().play_ask_below == 1.0
    world = srs_sim.WORLDS[0]

    def play_answers(rules, index):
        learner = srs_sim.learner_make(world, index, srs_sim.DEV_SEEDS[0])
        loop = srs_sim.Product(world, learner, srs_sim.Run(minutes=15.0, game=4.0, rules=rules))
        asked = []
        ask = loop.ask

        def counted(pair, day, kind, typed=None):
            if kind == "play_prompt":
                asked.append(pair)
            return ask(pair, day, kind, typed)

        loop.ask = counted
        for day in range(10):
            loop.day(day)
        return len(asked)

    # with 11 minutes of warm-up few kana need work by the game: the product asks more, over
    # four learners (one alone is noise: with session 25's script balance learner 2 asks less)
    learners = range(4)
    product = sum(play_answers(srs_sim.Rules(), i) for i in learners)
    assert product > sum(play_answers(srs_sim.Rules(play_ask_below=None), i) for i in learners)


def test_the_rule_tool_pairs_each_learner_with_the_base_value():
    import srs_rule_ab

    with pytest.raises(SystemExit):
        srs_rule_ab.main(["--rule", "no_such_rule", "--values", "1"])
    assert [srs_rule_ab.value_of(v) for v in ("none", "False", "2", "1.5", "seen")] == [
        None, False, 2, 1.5, "seen"]  # fmt: skip
    lines = srs_rule_ab.main(
        ["--rule", "play_ask_below", "--values", "1", "--learners", "1", "--seeds", "101",
         "--minutes", "15", "--processes", "1"]
    )  # fmt: skip
    assert lines[0] == "| cell | play_ask_below none | play_ask_below 1 |"
    rows = [row.split(" | ") for row in lines[2:]]
    assert [row[0] for row in rows][:3] == ["| 15/4 average", "| 15/4 fast-forgetting",
                                            "| 15/4 confusion"]  # fmt: skip
    assert any("+0.0 (" not in row[2] for row in rows)  # the rule changes what is remembered
    # --games 0: the warm-up alone (session 21), a rule still paired on the same learners
    lines = srs_rule_ab.main(
        ["--rule", "writing", "--values", "false", "--base", "true", "--learners", "1",
         "--seeds", "101", "--minutes", "6", "--games", "0", "--processes", "1"]
    )  # fmt: skip
    rows = [row.split(" | ") for row in lines[2:]]
    assert [row[0] for row in rows] == ["| 6/0 average", "| 6/0 fast-forgetting",
                                        "| 6/0 confusion"]  # fmt: skip
    assert any("+0.0 (" not in row[2] for row in rows)


def test_the_coverage_tool_counts_each_scripts_first_answers_by_day(capsys):
    """``run_one``'s ``first_asked``: per script, the kana first answered before each day of
    ``FIRST_ASKED_DAYS``; never more than the script's kana, never fewer on a later day, and
    the loop's last count is its ``asked_by_day_30`` split by script."""
    import srs_coverage

    run = srs_sim.Run(minutes=6, game=0, exposure=0.0)
    found = srs_sim.run_one(("fast-forgetting", "kanagame", 0, 101, run))
    assert srs_sim.FIRST_ASKED_DAYS[-1] == srs_sim.STUDY_DAYS
    per_script = len(srs_sim.ITEMS) // 2
    for script in srs_sim.SCRIPTS:
        counts = found["first_asked"][script]
        assert counts == sorted(counts) and 0 < counts[0] and counts[-1] <= per_script
    assert sum(c[-1] for c in found["first_asked"].values()) == found["asked_by_day_30"]
    srs_coverage.main(["--minutes", "6", "--worlds", "fast-forgetting", "--learners", "1",
                       "--seeds", "101", "--processes", "1"])  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" | ")[1] for line in lines[2:]] == ["fsrs", "kanagame"]
    assert f"{found['recall_hiragana']:.3f} / {found['recall_katakana']:.3f}" in lines[3]


def _answer_days(rules, monkeypatch=None, backlog=None):
    from learning.services import daily as daily_service

    world = srs_sim.WORLDS[0]
    learner = srs_sim.learner_make(world, 0, srs_sim.DEV_SEEDS[0])
    events: list[dict] = []
    run = srs_sim.Run(minutes=10.0, game=4.0, exposure=0.1, rules=rules)
    loop = srs_sim.Product(world, learner, run, recorder=events)
    if backlog is not None:
        monkeypatch.setattr(daily_service, "backlogged", lambda due, seconds, factor: backlog)
    for day in range(4):
        loop.day(day)
    return events


def _play_before_warmup(events, day: int) -> bool:
    """True when every play prompt of ``day`` came before every warm-up answer of it."""
    plays = [e["day"] for e in events if int(e["day"]) == day and e["in_play"]]
    warm = [e["day"] for e in events if int(e["day"]) == day and not e["in_play"]]
    assert plays and warm, "the day needs both kinds to tell their order"
    if max(plays) < min(warm):
        return True
    assert max(warm) < min(plays), "the warm-up and the game do not interleave"
    return False


def test_play_first_plays_the_game_before_the_warm_up_from_the_second_day(monkeypatch):
    """Session 24's rule, the product's (``daily.play_first_rule``, its factor the default):
    the first day is lessons first (a newcomer's), then the game comes before the warm-up,
    inside the same minutes; a factor keeps the warm-up first on a day the warm-up's own test
    (with that factor) calls a backlog; False, the warm-up first every day."""
    from learning.services import daily

    assert srs_sim.Rules().play_first == daily.PLAY_FIRST_FACTOR
    base = _answer_days(srs_sim.Rules(play_first=False))
    first = _answer_days(srs_sim.Rules(play_first=True))
    assert not any(_play_before_warmup(base, day) for day in range(4))
    assert not _play_before_warmup(first, 0)
    assert all(_play_before_warmup(first, day) for day in (1, 2, 3))
    for day in (1, 2, 3):  # the game's 4 minutes, then the warm-up's 6, from the day's start
        plays = [e["day"] for e in first if int(e["day"]) == day and e["in_play"]]
        warm = [e["day"] for e in first if int(e["day"]) == day and not e["in_play"]]
        assert max(plays) < day + 4 * 60 / 86400 <= min(warm) < day + 10 * 60 / 86400
    lagging = _answer_days(srs_sim.Rules(play_first=1.5), monkeypatch, backlog=True)
    assert [e["day"] for e in lagging] == [e["day"] for e in base]
    clear = _answer_days(srs_sim.Rules(play_first=1.5), monkeypatch, backlog=False)
    assert [e["day"] for e in clear] == [e["day"] for e in first]
    assert [e["day"] for e in _answer_days(srs_sim.Rules())] == [e["day"] for e in first]
    with pytest.raises(ValueError, match="play_first"):
        _answer_days(srs_sim.Rules(play_first="sometimes"))


def test_the_sweep_runs_the_loop_with_play_first_when_asked(capsys):
    args = ["--learners", "1", "--seeds", "101", "--minutes", "10", "--game", "4",
            "--exposure", "0.1", "--worlds", "average", "--arms", "kanagame",
            "--processes", "1", "--json"]  # fmt: skip
    last = srs_sim.main([*args, "--play-first", "0"])  # the warm-up first every day
    first = srs_sim.main(args)  # the product's order
    capsys.readouterr()

    def loop(result):
        (cells,) = result["rules"].values()
        (cell,) = cells.values()
        return cell["kanagame"]

    assert loop(first) != loop(last)  # the same learner, another day's order


def test_the_simulated_warm_up_passes_the_script_balance_to_the_products_quiz(monkeypatch):
    """Session 25: ``Rules.script_balance`` is the quiz's ``balance`` (the lagging script's due
    kana first), the product's default unless set, and a ratio changes what the loop asks."""
    from learning.services import quiz

    assert srs_sim.Rules().script_balance == quiz.SCRIPT_BALANCE
    seen = set()

    def order(cells, now=None, seconds=None, factor=quiz.BACKLOG_FACTOR, balance=None):
        seen.add(balance)
        return quiz.quiz_order(cells, now=now, seconds=seconds, factor=factor, balance=balance)

    monkeypatch.setattr(srs_sim, "quiz_order", order)
    world = srs_sim.WORLDS[1]  # fast-forgetting

    base = _asked_at_6_4(world, srs_sim.Rules())
    assert seen == {quiz.SCRIPT_BALANCE}
    seen.clear()
    assert _asked_at_6_4(world, srs_sim.Rules(script_balance=1.0)) != base
    assert seen == {1.0}


def test_the_sweep_runs_the_loop_with_a_script_balance_when_asked(capsys):
    args = ["--learners", "1", "--seeds", "101", "--minutes", "6", "--game", "4",
            "--exposure", "0.1", "--worlds", "fast-forgetting", "--arms", "kanagame",
            "--processes", "1", "--json"]  # fmt: skip
    off = srs_sim.main([*args, "--script-balance", "0"])  # one order across both scripts
    on = srs_sim.main([*args, "--script-balance", "1"])
    capsys.readouterr()

    def loop(result):
        (cells,) = result["rules"].values()
        (cell,) = cells.values()
        return cell["kanagame"]

    assert loop(on) != loop(off)  # the same learner, the warm-up's due kana in another order


def _asked_at_6_4(world, rules):
    """What the simulated loop asked one development learner over 12 days at 6/4 under
    ``rules``: its reviews and the last answer of each kana."""
    learner = srs_sim.learner_make(world, 1, srs_sim.DEV_SEEDS[0])
    loop = srs_sim.Product(world, learner, srs_sim.Run(minutes=6.0, game=4.0, rules=rules))
    for day in range(12):
        loop.day(day)
    return learner.reviews, sorted(loop.last_correct.items())
