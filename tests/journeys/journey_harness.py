"""The journeys' harness: one browser context per user, and ``step(name)``, which checks the
page the user is on and takes its screenshot.

Each step asserts (problems are collected, so every step of a journey runs and is
photographed, and the test fails at the end with the whole list):

- no console error and no uncaught page error since the last step;
- no 4xx/5xx response since the last step (documents, partials, scripts, images, favicon);
- no sideways scroll: ``document.scrollingElement.scrollWidth <= innerWidth``;
- axe-core finds no serious or critical violation;
- on a French or Japanese page, no visible text node (or accessible name, alt, title) equals
  an English msgid of that language's catalogue whose translation differs (read from the
  compiled catalogue, not from a hand-made list; romaji, which may spell "no", is not text);
- no raw engine name (``ENGINES`` keys) nor option key or value (each engine's ``OPTIONS``)
  is shown;
- on a board, the open kana question's box lies inside the viewport.

Screenshots: ``test-results/journeys/<journey>/<nn>-<step>-<width>x<height>.png``, and
``summary.json`` beside them (steps, problems, questions seen and inside the viewport).
"""

from __future__ import annotations

import gettext
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "journey-pass-2026"
RESULTS = Path(settings.BASE_DIR) / "test-results" / "journeys"
BLOCKING = {"serious", "critical"}

VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('script, style, template, [hidden], [class*=romaji]')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    const clipped = el.closest('.visually-hidden');  // read by screen readers: still checked
    if (!clipped && (box.width === 0 || box.height === 0)) continue;
    out.push(text);
  }
  // labels people read that are not text nodes
  for (const el of document.querySelectorAll('[aria-label], [alt], [title], [placeholder]')) {
    for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value && value.trim()) out.push(value.replace(/\\s+/g, ' ').trim());
    }
  }
  for (const el of document.querySelectorAll('input[type=submit], input[type=button]')) {
    if (el.value) out.push(el.value.trim());
  }
  return out;
}"""

SIDEWAYS = """() => {
  const width = window.innerWidth, doc = document.scrollingElement;
  return doc.scrollWidth <= width ? null : doc.scrollWidth + ' > ' + width;
}"""

QUESTION_BOX = """() => {
  const box = document.querySelector('#table-prompts form.prompt');
  if (!box) return null;
  const r = box.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.right <= innerWidth
    && (r.bottom <= innerHeight || (r.height > innerHeight && r.top < 1));
  return {
    question: box.getAttribute('action'),
    where: inside ? 'inside' : `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} `
      + `of a ${innerWidth}x${innerHeight} window`,
  };
}"""


def english_msgids(language: str) -> set[str]:
    """English msgids the catalogue of ``language`` translates differently."""
    path = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.mo"
    with open(path, "rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog  # noqa: SLF001 - the whole catalogue
    found = set()
    for key, translated in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        msgid = msgid.split("\x04", 1)[-1]  # msgctxt\x04msgid
        if msgid and translated != msgid and "%(" not in msgid and len(msgid.strip()) > 1:
            found.add(" ".join(msgid.split()))
    return found


def raw_ids() -> re.Pattern:
    """What a raw id looks like in a page's text (``ENGINES`` and each engine's ``OPTIONS``):

    - an engine name as a whole text ("yokai") or a word ("kazoku-families (kana)"), except
      a name that is also a plain English noun in prose (yokai) inside a longer text;
    - any option name or value with ``_`` or ``-`` ("bright_points", "10_5", "oya_1");
    - an option name followed by a colon ("rounds: 12", "variant: kana");
    - an option value in parentheses ("(kana)", "(gojuon)"), except a deck word's own
      reading after the word, in either script ("「かたかな」 (katakana)", "カタカナ
      (katakana)": the word game's log glosses the words it forms, and かたかな is read like
      the script option's value; see ``_words``).
    """
    from games.engines import ENGINES, get_engine

    names, values = set(), set()
    for engine in ENGINES:
        for option in get_engine(engine).OPTIONS:
            names.add(option.name)
            values.update(str(v) for v in option.choices if not str(v).isdigit())
    joined = [n for n in names | values if "_" in n or "-" in n]
    engines_in_prose = [e for e in ENGINES if e not in ("yokai",)]
    alternatives = [
        r"^(?:" + "|".join(map(re.escape, sorted(ENGINES))) + r")$",
        r"(?<![\w-])(?:"
        + "|".join(map(re.escape, sorted(engines_in_prose + joined)))
        + r")(?![\w-])",
        r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(names))) + r"): ",
        r"(?:(?P<word>[\u3041-\u30ff]+)」? ?)?\((?P<value>"
        + "|".join(map(re.escape, sorted(values)))
        + r")\)",
    ]
    return re.compile("|".join(alternatives))


@dataclass
class Journey:
    """One user's browser (a context at one size and language) and the steps walked."""

    name: str
    page: object
    base_url: str
    width: int
    height: int
    language: str
    problems: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    questions: dict[str, bool] = field(default_factory=dict)  # each question: inside?
    count: int = 0

    @property
    def prompts_seen(self) -> int:
        """Open questions seen on a board (each counted once, where it was first seen)."""
        return len(self.questions)

    @property
    def prompts_inside(self) -> int:
        return sum(self.questions.values())

    def watch(self) -> None:
        page = self.page

        def on_console(message) -> None:
            if message.type == "error":
                self.events.append(f"console error: {message.text[:200]}")

        def on_response(response) -> None:
            if response.status >= 400:
                self.events.append(f"HTTP {response.status} {response.url}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.events.append(f"page error: {error}"))
        page.on("response", on_response)

    def go(self, path: str):
        response = self.page.goto(self.base_url + path)
        self.page.wait_for_load_state("networkidle")
        return response

    def step(self, label: str) -> None:
        """Check the page as it is now, photograph it, and note every problem."""
        page = self.page
        page.wait_for_load_state("networkidle")
        self.count += 1
        where = f"{self.name} step {self.count} '{label}' ({page.url.replace(self.base_url, '')})"
        folder = RESULTS / self.name
        folder.mkdir(parents=True, exist_ok=True)
        shot = f"{self.count:02d}-{re.sub(r'[^a-z0-9]+', '-', label.lower())}"
        page.screenshot(path=str(folder / f"{shot}-{self.width}x{self.height}.png"), full_page=True)
        self.problems += [f"{where}: {event}" for event in self.events]
        self.events.clear()
        if too_wide := page.evaluate(SIDEWAYS):
            self.problems.append(f"{where}: scrolls sideways ({too_wide})")
        self.problems += [f"{where}: {problem}" for problem in self._axe()]
        texts = page.evaluate(VISIBLE_TEXT)
        self.problems += [f"{where}: {problem}" for problem in self._words(texts)]
        self.question_shown(where)

    def question_shown(self, where: str = "") -> None:
        """Note whether the open question (if any) lies inside the viewport as it is now.

        Called by ``step`` and by ``journey_play.answer_questions`` before each answer (before
        any click, which would scroll), so every question the journey answers is counted."""
        found = self.page.evaluate(QUESTION_BOX)
        if found is None or found["question"] in self.questions:
            return
        inside = found["where"] == "inside"
        self.questions[found["question"]] = inside
        if not inside:
            where = where or f"{self.name} ({self.page.url.replace(self.base_url, '')})"
            self.problems.append(
                f"{where}: the open question lies outside the screen: {found['where']}"
            )

    def _axe(self) -> list[str]:
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(self.page)
        return [
            f"axe {v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(str(node["target"][0]) for node in v["nodes"][:3])
            for v in results.response["violations"]
            if v.get("impact") in BLOCKING
        ]

    def _words(self, texts: list[str]) -> list[str]:
        found = []
        if self.language != "en":
            english = _english(self.language)
            found += [f"untranslated: “{text}”" for text in dict.fromkeys(texts) if text in english]
        pattern, readings = _raw_ids(), _word_readings()
        for text in dict.fromkeys(texts):
            for hit in pattern.finditer(text):
                if hit["word"] is not None and readings.get(hit["word"]) == hit["value"]:
                    continue  # a word glossed with its own reading, not an option's value
                found.append(f"raw id shown: “{text[:120]}”")
                break
        return found

    def check(self) -> None:
        """Fail with every problem of every step (after all steps ran and were photographed).

        Writes ``summary.json`` beside the screenshots first: steps, problems, and the open
        questions seen on boards and how many lay inside the viewport (docs/web.md)."""
        summary = {
            "journey": self.name,
            "size": f"{self.width}x{self.height}",
            "language": self.language,
            "steps": self.count,
            "questions_seen": self.prompts_seen,
            "questions_inside_viewport": self.prompts_inside,
            "problems": self.problems,
        }
        folder = RESULTS / self.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1))
        print(
            f"{self.name} {summary['size']}: {self.count} steps, questions inside the viewport: "
            f"{self.prompts_inside}/{self.prompts_seen}"
        )
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)


_CACHE: dict = {}


def _english(language: str) -> set[str]:
    if language not in _CACHE:
        _CACHE[language] = english_msgids(language)
    return _CACHE[language]


def _raw_ids():
    if "raw" not in _CACHE:
        _CACHE["raw"] = raw_ids()
    return _CACHE["raw"]


def _word_readings() -> dict[str, str]:
    """Each Kazoku deck word, in hiragana and in katakana (a katakana table prints it so) ->
    its Hepburn reading (the word game's log shows both)."""
    if "readings" not in _CACHE:
        from games.boards.kazoku_words import HIRAGANA_TO_KATAKANA
        from games.engines.kazoku.deck import load_deck

        deck = load_deck()
        words = [deck.cards[card].extra["word"] for card in deck.ids]
        readings = {word["kana"]: word["romaji"] for word in words}
        readings |= {kana.translate(HIRAGANA_TO_KATAKANA): r for kana, r in readings.items()}
        _CACHE["readings"] = readings
    return _CACHE["readings"]


def open_journey(browser, base_url: str, name: str, size: tuple[int, int], language: str):
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale=language, accept_downloads=True
    )
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base_url}]
    )
    journey = Journey(name, context.new_page(), base_url, size[0], size[1], language)
    journey.watch()
    return context, journey


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM)
