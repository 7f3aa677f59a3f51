"""Questions in the user's own language (issue 36): the detector, the focus rules, hints, the catalogs,
the model's referent parsed strictly, and the two-turn flow on the tiny real model in Spanish.

Data not written here: tests/data/languages/detect_corpus.jsonl holds xGQA questions (human translations of
GQA into German, Portuguese and Chinese, with their English originals) and XVNLI hypotheses (Spanish,
French), from github.com/e-bug/iglue; focus_gold_xgqa.jsonl labels the head noun of 44 xGQA questions,
labelled before the rules were written and frozen since. The Spanish, French and Italian focus cases below
were written here (no source of such questions could be had offline); they are marked as such.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from assistant.grounding import Grounder
from assistant.languages import CATALOG_LANGUAGES
from assistant.languages.catalog import Say, catalog_path
from assistant.languages.detect import detect_language
from assistant.languages.focus import analyse_in_language
from assistant.languages.hints import hint_in_english
from assistant.languages.question import analyse_any
from assistant.languages.referent import merge_reading, parse_referent
from assistant.pipeline import Assistant, AssistantConfig, grounding_phrase
from assistant.question import analyse_question
from assistant.regions import build_candidates, regions_for_hint
from models.base import GenerationSettings
from models.blob_pointer import BlobPointer
from models.types import Box, Grounding

DATA = Path(__file__).parent / "data" / "languages"
REPO = Path(__file__).resolve().parents[1]
RACQUET = REPO.parent / "shared" / "datasets" / "racquet"


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


# --- the detector ----------------------------------------------------------------------------------------

# Per-language accuracy on the 60 sentences of each language in detect_corpus.jsonl, as measured when the
# detector was added (de 59, pt 55, zh 60, es 60, fr 58 of 60): a floor a little under it.
FLOORS = {"de": 0.95, "pt": 0.88, "zh": 1.0, "es": 0.95, "fr": 0.93}


def test_the_detector_names_short_questions_it_did_not_see() -> None:
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for row in _rows("detect_corpus.jsonl"):
        totals[row["lang"]] += 1
        hits[row["lang"]] += detect_language(row["question"]).code == row["lang"]
    for lang, floor in FLOORS.items():
        assert totals[lang] == 60
        assert hits[lang] / totals[lang] >= floor, (lang, hits[lang])


def test_english_questions_stay_english_and_read_exactly_as_before() -> None:
    """No English question of xGQA's originals (or RAcQUEt's, where shared/ has it) is read as another
    language, so each keeps assistant.question's focus exactly."""
    questions = [row["english"] for row in _rows("detect_corpus.jsonl") if "english" in row]
    for path in sorted(RACQUET.glob("*.jsonl")) if RACQUET.is_dir() else []:
        questions += [json.loads(line)["question"] for line in path.read_text().splitlines() if line]
    assert len(questions) >= 180
    for question in questions:
        assert detect_language(question).code == "en", question
        assert analyse_any(question) == analyse_question(question)


@pytest.mark.parametrize(
    ("text", "code"),
    [("杯子是什么颜色？", "zh"), ("このカップは何色ですか？", "ja"), ("", "en"), ("?!", "en"), ("ok", "en")],
)
def test_script_and_empty_text(text: str, code: str) -> None:
    assert detect_language(text).code == code


# --- the focus rules -------------------------------------------------------------------------------------


def test_the_rules_find_the_head_of_xgqa_questions() -> None:
    """44 German and Portuguese questions, heads labelled before the rules were written."""
    wrong = []
    for row in _rows("focus_gold_xgqa.jsonl"):
        focus = analyse_in_language(row["question"], row["lang"])
        if (focus.head, focus.number) != (row["head"], row["number"]):
            wrong.append((row["question"], focus.head, focus.number))
    assert wrong == []


# Written here (see the module's note): the shapes the rules claim, one or two per language and rule.
@pytest.mark.parametrize(
    ("question", "head", "number", "locating"),
    [
        ("¿De qué color es la taza?", "taza", "singular", ()),
        ("¿De qué color son las tazas de la izquierda?", "taza", "plural", ("on the left",)),
        ("¿De quién es la cabeza de la moneda?", "moneda", "singular", ()),
        ("¿Qué lleva puesto la mujer de la derecha?", "mujer", "singular", ("on the right",)),
        ("¿Qué hay en la más pequeña caja?", "caja", "singular", ("smallest",)),
        ("De quelle couleur est la tasse ?", "tasse", "singular", ()),
        ("Quelle est la couleur de la plus grande tasse ?", "tasse", "singular", ("largest",)),
        ("Que porte l'homme à gauche ?", "homme", "singular", ("on the left",)),
        ("De quelle couleur sont les chevaux ?", "cheval", "plural", ()),
        ("Welche Farbe hat die Tasse?", "tasse", "singular", ()),
        ("Welche Farbe hat die linke Tasse?", "tasse", "singular", ("on the left",)),
        ("Was hält der Mann in der Hand?", "mann", "singular", ()),
        ("Di che colore è la tazza a sinistra?", "tazza", "singular", ("on the left",)),
        ("Di che colore sono le tazze?", "tazza", "plural", ()),
        ("Cosa indossa l'uomo?", "uomo", "singular", ()),
        ("De que cor é a xícara da direita?", "xícara", "singular", ("on the right",)),
    ],
)
def test_focus_rules_per_language(question: str, head: str, number: str, locating: tuple[str, ...]) -> None:
    focus = analyse_any(question)
    assert focus.language != "en" and focus.reader == "rules"
    assert (focus.head, focus.number, focus.locating) == (head, number, locating)
    assert focus.focus and focus.english == ""  # the English noun is the model's to give


def test_pronouns_and_either_or_places() -> None:
    he = analyse_in_language("¿Qué lleva él en la mano?", "es")
    assert (he.head, he.pronoun, he.english) == ("person", True, "person")
    that = analyse_in_language("Was ist das?", "de")
    assert that.pronoun and that.head == "object"
    this = analyse_in_language("Esse mousepad é branco?", "pt")
    assert this.head == "mousepad" and this.pronoun  # a demonstrative is vague, as "this dog" in English
    either = analyse_in_language("Sind die alten Menschen links oder rechts?", "de")
    assert either.head == "mensch" and either.locating == ()  # asks where: locates nothing


def test_chinese_goes_to_the_model_path_and_says_so() -> None:
    focus = analyse_any("杯子是什么颜色？")
    assert (focus.language, focus.head, focus.reader) == ("zh", "", "none")
    assert focus.to_dict()["reader"] == "none"


def test_english_focus_json_is_unchanged() -> None:
    assert set(analyse_any("What colour is the cup?").to_dict()) == {
        "focus", "head", "number", "pronoun", "descriptors", "non_visual_descriptors",
    }  # fmt: skip


# --- hints -------------------------------------------------------------------------------------------------


def _three_boxes() -> list:
    hits = [
        Grounding(label="cup", score=0.9, box=Box(20, 200, 120, 300)),  # left, small
        Grounding(label="cup", score=0.9, box=Box(250, 150, 430, 330)),  # centre, largest
        Grounding(label="cup", score=0.9, box=Box(520, 210, 610, 290)),  # right, smallest
    ]
    return build_candidates(hits, (640, 480))


@pytest.mark.parametrize(
    ("hint", "lang", "expected"),
    [
        ("la de la izquierda", "es", 1),
        ("la más grande", "es", 2),
        ("celle de droite", "fr", 3),
        ("la plus petite", "fr", 3),
        ("die größte", "de", 2),
        ("die linke", "de", 1),
        ("a da direita", "pt", 3),
        ("quella a sinistra", "it", 1),
        ("la número dos", "es", 2),
        ("la 3", "es", 3),
        ("左边那个", "zh", 1),
        ("最大的", "zh", 2),
    ],
)
def test_a_hint_in_the_questions_language_chooses_the_candidate(hint: str, lang: str, expected: int) -> None:
    candidates = _three_boxes()
    fitting = regions_for_hint(candidates, hint_in_english(hint, lang))
    assert [r.id for r in fitting] == [expected]


def test_a_negated_hint_is_not_read_as_a_place() -> None:
    assert regions_for_hint(_three_boxes(), hint_in_english("no la de la izquierda", "es")) == []


# --- catalogs ----------------------------------------------------------------------------------------------

CODE_WITH_SENTENCES = [
    "assistant/pipeline.py",
    "assistant/policy.py",
    "assistant/languages/say_reply.py",
    "ui/i18n.py",
    "ui/explain.py",
    "ui/handlers.py",
    "ui/overlay.py",
    "ui/page_language.py",
]
_FIELD = re.compile(r"\{(\w*)\}")


def _msgids_in_code() -> set[str | tuple[str, str]]:
    keywords = {"say": None, "n": (1, 2), "N_": None}
    found: set[str | tuple[str, str]] = set()
    for path in CODE_WITH_SENTENCES:
        for _, message, _, _ in extract_from_file("python", REPO / path, keywords=keywords):
            found.add(message)
    return found


@pytest.mark.parametrize("lang", sorted(CATALOG_LANGUAGES))
def test_every_sentence_of_the_code_is_translated_with_the_same_fields(lang: str) -> None:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    code = _msgids_in_code()
    assert len(code) >= 50
    for msgid in code:
        message = catalog.get(msgid)
        assert message is not None and not message.fuzzy, (lang, msgid)
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), (lang, msgid)
        want = set(_FIELD.findall(" ".join(ids)))
        for text in strings:
            assert set(_FIELD.findall(text)) <= want and text.strip(), (lang, msgid, text)
            assert set(_FIELD.findall(text)) >= want - {"count"} or lang == "zh", (lang, msgid, text)
    assert not [m.id for m in catalog if m.id and m.id not in code], "catalog has sentences no code says"


def test_german_nouns_are_written_with_a_capital_in_sentences() -> None:
    from assistant.languages.say_reply import localise_candidates

    candidates = localise_candidates(_three_boxes(), Say("de"), "tasse")
    assert candidates.regions[0].description == "Tasse, links"
    assert candidates.regions[1].description == "Tasse, in der Mitte, am größten"
    chinese = localise_candidates(_three_boxes(), Say("zh"), "杯子")
    assert chinese.regions[1].description == "杯子，在中间，最大的"


def test_english_says_the_msgids() -> None:
    say = Say("en")
    assert (
        say("About {description} (number {id}): ", description="the cup", id=2)
        == "About the cup (number 2): "
    )


# --- the model's referent ----------------------------------------------------------------------------------


def test_the_referent_reply_is_parsed_strictly() -> None:
    good = parse_referent(
        'Sure: {"referent": "red cup", "head": "cup", "number": "singular", "descriptors": ["red"], '
        '"non_visual": [], "head_in_question_language": "taza"}'
    )
    assert good is not None and (good.referent, good.head, good.number) == ("red cup", "cup", "singular")
    for bad in [
        "",
        "a red cup",
        '{"referent": "red cup"}',  # no head, no number
        '{"referent": "red cup", "head": "cup", "number": "two"}',
        '{"referent": "红色杯子", "head": "cup", "number": "singular"}',  # not English for the pointer
        '{"referent": "red cup", "head": "dog", "number": "singular"}',  # head not in the phrase
        '{"referent": "cup", "head": "cup", "number": "singular", "descriptors": "red"}',
    ]:
        assert parse_referent(bad) is None, bad


def test_the_models_reading_gives_the_pointer_english_and_keeps_the_rules_head() -> None:
    rules = analyse_in_language("¿De qué color es la taza de la izquierda?", "es")
    reading = parse_referent(
        '{"referent": "cup", "head": "cup", "number": "singular", "descriptors": ["on the left"], '
        '"non_visual": [], "head_in_question_language": "taza"}'
    )
    assert reading is not None
    merged = merge_reading(rules, reading)
    assert (merged.head, merged.english, merged.reader) == ("taza", "cup", "rules + model")
    assert grounding_phrase(merged) == "cup"
    chinese = merge_reading(analyse_any("那个红色的杯子是谁的？"), reading)
    assert (chinese.head, chinese.english, chinese.reader) == ("taza", "cup", "model")


# --- the flow on the tiny real model ------------------------------------------------------------------------


def _squares(n: int) -> Image.Image:
    image = Image.new("RGB", (640, 480), "white")
    draw = ImageDraw.Draw(image)
    step = 640 // n
    for i in range(n):
        x = i * step + step // 2
        draw.rectangle((x - 40, 200, x + 40, 280), fill=["red", "blue", "green", "orange", "purple"][i])
    return image


FAST = AssistantConfig(
    recognition_settings=GenerationSettings(max_new_tokens=8),
    answer_settings=GenerationSettings(max_new_tokens=8),
)


def test_a_spanish_turn_speaks_spanish_and_a_spanish_hint_chooses(tiny_vlm) -> None:
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    reply, session = assistant.ask(_squares(5), "¿De qué color es la caja?")
    assert reply.focus is not None and reply.focus.language == "es" and reply.focus.head == "caja"
    assert reply.to_dict()["language"] == "es"
    assert reply.model_calls["vlm"] == 2  # the referent (text only) + recognition; clarify costs none
    assert reply.text.startswith("Veo 5 candidatos (caja).")
    assert "¿A cuál te refieres? Elige un número, haz clic en él o descríbelo." in reply.text
    lines = reply.text.splitlines()[1:]
    assert lines[0] == "1: caja, a la izquierda" and lines[-1] == "5: caja, a la derecha"
    second, _ = assistant.resolve(session, "la de la izquierda")
    assert second.resolved_region == 1
    assert second.text.startswith("Sobre caja, a la izquierda (número 1): ")
    assert second.explanation == "Elegiste el número 1, caja, a la izquierda."
    again, _ = assistant.resolve(session, "la número 9")
    assert again.resolved_region is None or again.resolved_region in {1, 2, 3, 4, 5}


def test_an_english_turn_is_said_as_before(tiny_vlm) -> None:
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    reply, _ = assistant.ask(_squares(5), "What colour is the box?")
    assert reply.focus is not None and reply.focus.language == "en"
    assert reply.model_calls["vlm"] == 1  # no referent call for English
    assert reply.text.startswith("I see five boxes. Which one do you mean? Choose a number, click on it")
    assert reply.text.splitlines()[1] == "1: the red box on the left"  # the blobs pointer names colours
