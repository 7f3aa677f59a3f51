"""The focus of a visual question, from its wording alone: rule based, deterministic, no model.

`analyse_question("What colour is the cup on the left?")` gives focus "the cup on the left", head "cup",
descriptors ("on the left",), singular, no pronoun. The rules, in the order the parser applies them:

- One sentence is read: the first that ends in "?", else the first with words; at most 60 tokens of it.
- The question's shape picks the subject: wh-questions ("What is the person wearing?": the noun phrase
  after the auxiliary), yes/no questions ("Is the dog asleep?"), requests ("Describe the shirt", "Tell me
  about this", "Can you see his face?": the object of the verb), embedded questions ("Tell me what the man
  is holding") and bare phrases ("the cup on the left").
- With no subject ("What is on the plate?", "What is written on the road sign?") the focus is the first
  noun phrase after the verb. For "there is" and "how many" questions about an indefinite thing in a
  definite place ("How many flowers are there in the vase?", "Is there any writing on the shirt?") the
  place is the focus: it is what could be one of many. "How many dogs are there?" stays "dogs", plural.
- Pronouns: he / she / him / her / his -> head "person"; it / this / that / they -> "object", unless a noun
  follows ("this dog" -> head "dog") or the wh-phrase names the kind ("What animal is it?" -> "animal").
  Deictic determiners count as pronouns (vague): "this dog" has pronoun True. "What time is it?" is the
  weather / time "it", not a referent.
- Possessives name the possessor: "the player's role" -> head "player"; "his jacket" -> head "person".
  Pure attributes are dropped from the focus ("the colour of the cup" -> "the cup", "the player number" ->
  "the player"); parts and clothes keep it ("the airplane's tail", head "airplane"). "A piece of luggage" ->
  head "luggage". Lexicalised compounds stay whole ("teddy bear", "hot dog"); other compounds keep the last
  noun as head and the rest as descriptors ("the street sign" -> head "sign", descriptor "street").
- Descriptors: adjectives and noun modifiers before the head, prepositional phrases, participles and
  relative clauses after it ("the man holding the apple", "the man who is holding the apple" -> "holding
  the apple"), except the one that is the question's own predicate ("What is the man holding?",
  "Is the cat on the sofa?"). Phrases naming a place ("on the left", "next to the car") are also spatial;
  "in the red shirt" and "with a hat" are not.
- Number: "both", "all", numerals, "these", "how many", "they", and plural nouns (inflect) are plural.
  Plural-only nouns and worn pairs ("the shorts", "his shoes") stay singular unless a number word says
  otherwise, because one pair is one referent.
- Role nouns that judge a person by what no photo shows ("the criminal", "the leader") give head "person"
  with the role as a non-visual descriptor (lexicon.NON_VISUAL_ROLE_NOUNS).
- The head is normalised: singular (inflect), American spelling; the focus keeps the user's own words in
  lower case. A question about the whole picture ("What is in the image?") has no focus.

Never raises: any string, empty included, gives a QuestionFocus.
"""

from __future__ import annotations

import logging
import re

from assistant import lexicon as lx
from assistant.question_parser import Parser
from assistant.question_tokens import Token
from assistant.types import QuestionFocus
from assistant.validation import without_control_characters
from assistant.words import (
    FUNCTION_WORDS,
    POSSESSIVE,
    PUNCT,
    is_non_visual_descriptor,
    is_spatial_descriptor,
    is_unique_descriptor,
    is_word,
)

__all__ = ["analyse_question", "is_non_visual_descriptor", "is_spatial_descriptor", "is_unique_descriptor"]

logger = logging.getLogger(__name__)

MAX_TOKENS = 60  # a question longer than this is cut; the focus is near the start
MAX_CHARS = 4000  # no question needs more; keeps pathological input cheap

_TOKEN_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*'?|[?!.;,:]")
_LATIN_RE = re.compile(r"[0-9a-z\u00c0-\u024f'-]+")  # words in Latin script (accents allowed)
_SENTENCE_END = frozenset({"?", "!", ".", ";"})
_CONTRACTION_IS = frozenset(
    {
        "what",
        "where",
        "who",
        "how",
        "that",
        "there",
        "here",
        "it",
        "he",
        "she",
        "this",
        "which",
        "when",
        "why",
        "everything",
        "something",
        "nothing",
    }
)
_SUFFIXES = {"re": "are", "ll": "will", "d": "would", "ve": "have", "m": "am"}
_NOT_STEMS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}


# --- tokens ----------------------------------------------------------------------------------------------
def _split_word(raw: str) -> list[Token]:
    if raw.endswith("'") and len(raw) > 1:  # "players'" -> players + possessive
        base = raw[:-1]
        return [Token(base, base), Token(POSSESSIVE, "'")] if base.endswith("s") else [Token(base, base)]
    if "'" not in raw:
        return [Token(raw, raw)]
    base, suffix = raw.split("'", 1)
    if suffix == "s":
        if base in _CONTRACTION_IS:
            return [Token(base, base), Token("is", "'s")]
        if base == "let":
            return [Token("let", "let"), Token("us", "'s")]
        return [Token(base, base), Token(POSSESSIVE, "'s")]
    if suffix == "t" and base.endswith("n"):
        stem = base[:-1]
        return [Token(_NOT_STEMS.get(stem, stem), base), Token("not", "'t")]
    if suffix in _SUFFIXES:
        return [Token(base, base), Token(_SUFFIXES[suffix], "'" + suffix)]
    return [Token(raw, raw)]


def _tokenise(question: str) -> list[Token]:
    text = without_control_characters(question[:MAX_CHARS]).lower()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    toks: list[Token] = []
    for raw in _TOKEN_RE.findall(text):
        if raw in lx.CHAT_WORDS:
            toks.extend(Token(w, raw) for w in lx.CHAT_WORDS[raw])
            continue
        for tok in _split_word(raw):
            norm = lx.SPELLING.get(tok.norm, tok.norm)
            if norm == "shirt" and toks and toks[-1].norm in {"t", "tee"}:  # "t shirt" -> "t-shirt"
                prev = toks.pop()
                toks.append(Token("t-shirt", prev.orig + " " + tok.orig))
                continue
            toks.append(Token(norm, tok.orig))
    return toks


def _sentence(toks: list[Token]) -> list[Token]:
    """The sentence to read: the first question, else the first sentence with words, without fillers."""
    sentences: list[list[Token]] = [[]]
    for tok in toks:
        sentences[-1].append(tok)
        if tok.norm in _SENTENCE_END:
            sentences.append([])
    questions = [s for s in sentences if s and s[-1].norm == "?"]
    for sentence in questions + sentences:
        words = _drop_fillers(sentence)
        if any(is_word(t.norm) for t in words):
            return words[:MAX_TOKENS]
    return []


def _drop_fillers(sentence: list[Token]) -> list[Token]:
    start = 0
    while start < len(sentence) and (sentence[start].norm in lx.FILLERS or sentence[start].norm in PUNCT):
        # "so" and "now" open questions too ("So what is he holding?"); they are never the focus
        start += 1
    return sentence[start:]


def _empty(question: str) -> QuestionFocus:
    return QuestionFocus(question=question, focus="", head="", number="singular", pronoun=False)


def _english(toks: list[Token]) -> bool:
    """Whether the rules can read the sentence: Latin script, and a function word if it is a long one
    ("¿Qué color es la taza?" is left alone rather than given a made-up head)."""
    words = [t.norm for t in toks if is_word(t.norm)]
    if any(not _LATIN_RE.fullmatch(w) for w in words):
        return False
    return len(words) <= 2 or any(w in FUNCTION_WORDS for w in words)


def _analyse(question: str) -> QuestionFocus:
    parser = Parser(_sentence(_tokenise(question)))
    phrase = parser.clause(0) if parser.toks and _english(parser.toks) else None
    if phrase is None or not phrase.head or phrase.head_word in lx.IMAGE_WORDS:
        return _empty(question)
    focus = " ".join(t for t in (parser.text(a, b, orig=True) for a, b in phrase.parts) if t)
    descriptors = tuple(dict.fromkeys(d for d in phrase.descriptors if d))
    spatial = tuple(d for d in dict.fromkeys(phrase.spatial) if d in descriptors)
    head = phrase.head
    if head in lx.NON_VISUAL_ROLE_NOUNS:  # "the criminal": a person, judged by what no photo shows
        descriptors, head = (*descriptors, head), "person"
    return QuestionFocus(
        question=question,
        focus=focus,
        head=head,
        number=phrase.number,
        pronoun=phrase.pronoun_word is not None,
        pronoun_word=phrase.pronoun_word,
        descriptors=descriptors,
        non_visual_descriptors=tuple(d for d in descriptors if is_non_visual_descriptor(d)),
        spatial_descriptors=spatial,
    )


def analyse_question(question: str) -> QuestionFocus:
    """The focus phrase, head noun, number, pronoun and descriptors of a visual question.

    Deterministic and cheap (no model); never raises. Anything that is not a question with a noun phrase
    (empty text, emoji, another language the rules do not know) gives an empty focus and head.
    """
    if not isinstance(question, str):  # not a question at all: nothing to read
        return _empty("" if question is None else str(question))
    try:
        return _analyse(question)
    except Exception as exc:  # a rule bug must not break a user's turn; the tests fuzz _analyse directly
        logger.warning("question analysis failed (%s); using an empty focus", type(exc).__name__)
        return _empty(question)
