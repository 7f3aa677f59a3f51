"""A typed hint in another language, read as the English words assistant.regions.regions_for_hint knows:
"la de la izquierda" -> "left", "celle de droite" -> "right", "die größte" -> "largest", "la número 2" ->
"number 2", "no la de la izquierda" -> "not left" (refused there, as in English)."""

from __future__ import annotations

import re

from assistant.languages.lexicon import RULES

# Cardinal and ordinal number words read as the English ones regions_for_hint knows.
_NUMBERS: dict[str, dict[str, str]] = {
    "es": {"uno": "one", "una": "one", "dos": "two", "tres": "three", "cuatro": "four", "cinco": "five",
           "número": "number", "numero": "number", "opción": "option"},
    "fr": {"un": "one", "une": "one", "deux": "two", "trois": "three", "quatre": "four", "cinq": "five",
           "numéro": "number", "numero": "number", "option": "option"},
    "de": {"eins": "one", "zwei": "two", "drei": "three", "vier": "four", "fünf": "five", "nummer": "number",
           "nr": "number", "option": "option"},
    "pt": {"um": "one", "uma": "one", "dois": "two", "duas": "two", "três": "three", "quatro": "four",
           "cinco": "five", "número": "number", "numero": "number", "opção": "option"},
    "it": {"uno": "one", "una": "one", "due": "two", "tre": "three", "quattro": "four", "cinque": "five",
           "numero": "number", "opzione": "option"},
}  # fmt: skip
_WORD = re.compile(r"[^\W_]+|#")


# Chinese is written without spaces: its position words are found as substrings, longest first.
_CHINESE = {
    "左上": "top left",
    "右上": "top right",
    "左下": "bottom left",
    "右下": "bottom right",
    "最左": "leftmost",
    "最右": "rightmost",
    "左": "left",
    "右": "right",
    "上面": "top",
    "上方": "top",
    "下面": "bottom",
    "下方": "bottom",
    "中间": "middle",
    "最大": "largest",
    "最小": "smallest",
    "不是": "not",
    "第一": "first",
    "第二": "second",
    "第三": "third",
}


def hint_in_english(hint: str, lang: str) -> str:
    """The hint's position, size, order, number and negation words in English, in their order; the hint
    unchanged for English or a language without rules or words here (Japanese: the model reads it)."""
    if lang == "zh":
        return _chinese_hint(hint)
    rules = RULES.get(lang)
    if rules is None:
        return hint
    numbers = _NUMBERS.get(lang, {})
    words = _WORD.findall(hint.lower())
    out: list[str] = []
    k = 0
    while k < len(words):
        pair = f"{words[k]} {words[k + 1]}" if k + 1 < len(words) else ""
        if pair in rules.positions:
            out.append(rules.positions[pair])
            k += 2
            continue
        w = words[k]
        if w in rules.positions:
            out.append(rules.positions[w])
        elif w in rules.negations:
            out.append("not")
        elif w in numbers and (numbers[w] in {"number", "option"} or _after_number_word(out)):
            out.append(numbers[w])
        elif w.isdigit() or w == "#":
            out.append(w)
        k += 1
    return " ".join(out)


def _chinese_hint(hint: str) -> str:
    found: list[tuple[int, str]] = []
    text = hint
    for word in sorted(_CHINESE, key=len, reverse=True):
        at = text.find(word)
        if at >= 0:
            found.append((at, _CHINESE[word]))
            text = text.replace(word, " " * len(word))
    digits = [(m.start(), m.group()) for m in re.finditer(r"\d+", hint)]
    return " ".join(word for _, word in sorted(found + digits))


def _after_number_word(out: list[str]) -> bool:
    """ "la número dos": a cardinal counts only after "number" ("una" alone is the article)."""
    return bool(out) and out[-1] in {"number", "option"}


__all__ = ["hint_in_english"]
