"""AQuA's judge questions (the strategy, PASS after a clarification, factual consistency): the labels, the
LLM judge's rubric and what it reads, how its text is parsed, and the rule judge's rules where it has them
(factual consistency needs the image: only an LLM judge that sees it can answer).

AQuA strategy (levels 0-3, from the response's surface; after step-by-step reasoning, from its final
answer): clarify when it asks which referent is meant (or offers referents to choose from, "the girl on
the left, or the one on the right?"), unless it first answers for referents in places that exclude each
other (then it enumerates); enumerate when it speaks of several referents (class A's plural / place /
"both" cues) or lists two or more items that each name a place or the referent, but a plural that only
says there are several ("There are several women, but the one in the centre ...") before one is singled
out is infer; two clauses answering in the same frame ("is", "says" / "reads", or one verb)
for two definite subjects enumerate ("The pigeon is pecking ..., and the seagull ... is standing"), but
not a subject already named (the answer described), a part or garment, nor the asked referent set
against another kind of thing; infer when it states an assumption ("assuming", "I assume", "if you
mean", "the main ...") or singles out one referent by a description (the B cues: "the dog in the
centre"; a thing described only as evidence, "going by the logo on the lid", singles out nothing), or,
for a question whose referent is only "this" / "it", names what it took the referent to be ("The hot
dog has ..."; "This is a kitchen" for "What room is this?" gives the asked category: an answer); answer
otherwise. Round 3: "you (probably) mean the chef" states an assumption; "That's a whisk" names a bare
"this" (a colour or amount after it names nothing; for a bare "What is this?" it answers); "the one
..., and the other ..." and an acknowledged plural whose referents are then taken up by places that
exclude each other enumerate; a terse reply's bare place keys ("left guy red, right guy blue") enumerate
unless they name sides of one thing; answers for "the X at ..." and "the one ..." after "which one?"
enumerate, places alone do not; chat spellings "u" / "ur" read as "you" / "your". Round 4: values
keyed in brackets by referents ("4 (keeper), 17 (winger)"), keys with a bracketed aside, and items keyed
by descriptions of where each referent is or what it does there ("Grazing at the back: a sheep / By the
gate: a goat") enumerate; so do candidates offered as alternatives and then answered in turn ("Could be
either the teapot or the vase. The teapot is ...; the vase is ..."). For a vague question, a reply that
checks its guess ("The shop door? Yes, ...") or whose evidence names the whole of a part ("going by the
logo on the laptop lid") names what "it" is: infer. A question back about the question's pronoun ("who is
'he'?") asks; the question's own verb or predicate ("does it show", "is it open") names no referent.
Round 5: two or more referents, each singled out by a description of its own and each answered in its
own clause ("the baby in the high chair is looking at ..., and the baby on the play mat ..."; terse
"older boy about 10, the smaller boy 5"; "9:15 on the left clock, 2:15 on the right"; a conditional
answer and another referent's answer; "either the X ..., which is A, or the Y ..., which is B")
enumerate, also before a closing question; one singled-out referent needs a description of the
referent answered for, not of the answer's own thing ("holding the guitar with both hands") nor of
evidence after the answer ("there's the logo on the lid"), and a demonstrative subject ("That bird on
the railing is ...") describes as "the" does. For a bare "What is this?" the name is the answer ("This
is a bicycle."); named and placed, it abstains. A question back offering the candidates for the
question's pronoun ("Is \"it\" the banana or the avocado?") and a statement that it cannot tell which
one is meant, with nothing answered, clarify; an offer to change ("let me know if you meant something
else") is no second conditional answer; one thing cited as evidence for a vague question ("going by
the light") abstains.
Round 6: answers are counted by what keys each to its referent, whatever their wording: clauses keyed by
different owners ("The woman's scarf is mustard yellow and the child's is a red tartan") and literal
values each on a thing of its own ("$4.99/lb on the apples, $2.49 on the bananas") enumerate, also before
a closing question ("Which one did you mean?"); not an owner the question names, a possessive with no
answer (the candidates of a question back), nor values on parts or on things of another kind. A question
back made only of definite candidates ("the bus, the jersey or the door?"), with nothing answered,
clarifies. A "how many" question's counted noun is the answer's, not a referent ("I count five horses"
answers; the referent is what holds them, "the car" of "How many people are in the car?"), and a count
broken down by place abstains. A question for a reading (time, score, price ...) that names no thing of
its own is about the display it is read from: a made thing (WordNet's artifact) cited as the evidence
("going by the big scoreboard above the stands", "the clock tower") is the referent taken, infer.
Round 8: for a question whose referent is only a pronoun or left out ("What flavour is it?", "Is she
winning?", "How many are left?"), the reply's subject or opening topic phrase naming a thing the question
does not ("The bag of crisps in the middle is ...", "In the egg box, 4 eggs are left") is the referent
taken: infer (a name after the question's own pronoun, "This is a bicycle", stays the answer). A colon
after an introduction opens clauses ("two items: the sandwich is ... and the bottle is ..."); "is -ing"
and "is" + a state are one frame; a plural after a determiner or preposition is no verb; garments are
things of their own for a "this" naming no person. A final answer of several values ("A / B / C,
depending on the seat") is read with the reasoning's enumeration. The speaker's own aside ("I don't want
to describe the wrong person", "I'll describe that one") answers nothing, so a question back or "not sure
which you mean" still clarifies. An acknowledged plural followed by an answer in the question's own
pronoun ("Her scarf is yellow") is one answer. A question back followed by answers for "the one ..." and
"the other one ...", or by items keyed by referents each answered ("**Girl on the swing:** ..."), answers
for each. One thing picked against another ("your phone, not the TV") is infer. The question's asked noun
as a subject ("the sport is cricket") restates the answer; a described side ("the far end") singles out
no referent; list items keyed by one referent's parts ("**Upper body:** ...") are no referents.
Round 9: a JSON or markdown-table reply is read as sentences and list items (cues.structured: a JSON
object's text values as sentences, a table's rows as keyed items); a table whose first column is headed
by the asked referent ("| car | color |") answers for each row. Round 8's mechanisms narrowed: a
description that repeats the question's final participle ("chef cooking noodles", "taken in a station")
restates the question with its answer and singles out nothing; evidence set apart after the answer
that points back at it ("- the tower on the right and the jet bridges all point to that") singles out
nothing; a place in a sentence that only says another one is there ("There is another woman on the
right too.") is no second referent answered for; "both" for a question about "they" / "these" counts
the group asked about. A reading question naming no display ("What's the time?") leaves its referent
out: a made thing as the reply's subject ("The large clock ... reads 7:45") is the one read, infer; a
topic phrase may end in a colon ("On the whiteboard: ..."), and a closed compound WordNet lacks
("whiteboard") is a noun by its tail.
Round 10: a reasoning block in tags ("<think>...</think>") is dropped before the answer after it, an
"<answer>" wrapper opened, and a grounded caption's phrases read as words. A question back that checks one
candidate and answers for it on that condition ("Are you asking about the X? If so, she's wearing ...")
infers; a "which one" clause written without its "?" ("which one lol, there's like 4 cones") with nothing
answered clarifies; a referent described by what the user does to it ("the sign you're pointing at")
is an assumption; a colon after a clause that says the question's predicate of one subject ("looks ripe:
dark skin, and the flesh is soft") opens its evidence, no second referent. The default ("answer", no
rule fired) abstains where the reply has a shape no rule parsed (`strategy_cues.unread_layout`): an
opening question, several grounded phrases, markup or an arrow left, the user spoken of, short values
keyed by labels, a definite kind of the asked referent ("the batsman" for "the player"), the asked
noun in the plural, or the asked referent placed on a side of the image ("The man is standing by the
van on the left") for a question that does not ask where.
Round 12: a reply of fields in flat YAML, a key=value log or XML leaf elements is read as a JSON object
is (cues.structured.fields: values as sentences, a log's records as list items), before an answer tag
alone would drop its other fields ("<referent>the mug ...</referent><answer>coffee</answer>" infers); a
reply of fields that no rule read and with no field named as its answer ("ref=shop_door(centre)
state=open") abstains, as do several records: the field names say what the values are.
A "the one ..." apposition set off by commas right after a description renames it ("The red-brick
building on the corner, the one with the clock tower, looks Victorian": one referent); an existential
whose relative clause says something of what it introduces ("There's also a clock on the oven, which
shows 7:08") is a clause about it, a second referent answered for, while one that only says another is
there ("There is another X on the fridge.") adds none, whichever cue (place or "another") read it. After a
question back offering "the X or the Y", clauses opening on the bare nouns ("Cake is chocolate, pudding
looks like mango") answer for the candidates: enumerate. A guess put as a question ("I think you mean the
bigger boat? Please confirm") with nothing answered clarifies; a condition on what the question is about
("If the question is about the calf, yes") is an assumption, and two such conditions enumerate.
AQuA clarification PASS (Section 6.3): PASS when every content word of the reference answer (articles
and stop words dropped, number words as digits; forms, spellings, times and yes / no as answer_match reads
them) occurs in the response and none is negated ("not red"), for any of the reference answers given,
for the hinted referent (not in a clause about another one, nor in a place that excludes the hint's), and
the response gives one answer; FAIL otherwise. One answer: a reply that lists several options ("either
... or", "if you mean ...", "red or blue", "5 or 6", "five to six", answers for several referents) fails,
as it has not answered the clarified question, and so does a bare "23 and 8" for "23"; a list is such
options only where its items are alternatives: features listed before (or after) an answer that no item
gives ("- bushy tail / - reddish fur ... That's a red squirrel") support that one answer, and a list that
gives the reference before a conclusion giving it again abstains (one option picked, or features naming
it); after step-by-step reasoning (or a self-correction: "wait", "actually wait", "no wait", "on second
thought", "correction:", "my mistake", after interjections such as "oh" or "hmm") the final answer is what
is judged, and where an "I mean" drops the reference it abstains (a correction or a restatement); for
a question ending in a preposition ("What is the dog lying on?") the reply's object of that preposition
must hold the reference; and in a list keyed by referents the one
item keyed by the hint's own words is the answer; a clause naming the hinted referent that says it has
nothing ("isn't holding anything, but the boy next to it has a rattle") fails. Without the reference's
words the reply fails, except where it may give the reference in other words: part of a reference of
several words ("a teddy" for "a teddy bear") or a word of related form ("motorbike" for "motorcycle")
abstain (unknown), unless it gives another number, time or colour, or the opposite shade. A synonym of
the reference's head noun or a kind of it, by WordNet (answer_match.in_other_words: "the fiddle" for
"violin", "a bike" for "a bicycle", "a mallard" for "a duck"), passes where it stands in the clause
that answers (the first, or one with the question's predicate) and binds to the hinted referent as the
reference would; elsewhere ("He rides a scooter; his brother has a bike"), or a synonym only by a rare
sense ("wheels" for "bicycle"), abstains; colours keep their closed class ("crimson" is no sure "red").
A reply cut off mid-sentence before it gives the reference fails ("does not answer"); one that gives it
in a finished sentence before the cut passes, unless the unfinished sentence turns ("but", "not", "or", a
correction). A yes / no is
also read from an elliptic answer ("He is - a hard hat"), an opening "Definitely" / "Not really", a
subject said as a pronoun ("It has a collar on"), and the reply's opening word where the hinted clause
reads neither way. The hinted clause is the one with all the hint's words where one has them ("the kid
in the red hat", not the one "in the green hat"); a reply that tells referents apart in other words than
the hint's ("the man in the hat" for "the man sitting down") abstains, but one that calls the answer's
subject by the opposite of a hint word (WordNet's antonyms: "the standing man" for "the man sitting
down", "the big dog" for "the small dog") gives it to another referent and fails; so does a definite
person or animal that is no referent as the answering clause's subject ("and the mother is holding a
banana" for "the baby monkey"). The opposite of the asked state said of the subject answers "no" ("The
door is shut tight" for "Is the door open?"); "pale blue" gives "light blue" (the same shade). "of"
belongs to the noun before it ("a field full of sunflowers" gives no object of "painting of"); for "How
many N", a count put on N that is not the reference's fails ("three suitcases: two large ones"). An
"or" offers options for the answer only in the stretch (up to a sentence end or a dash) that holds a
reference word ("is eating - mashed banana, or maybe fruit puree" hedges a detail); a reference negated
in another clause leaves the clause that gives it ("the older child isn't eating"; binding decides
whose); a kind of the reference by a rare sense only ("a bunny": first a club hostess) abstains.
Counts in dozens are numbers ("half a dozen" = 6); a British or American term for the reference's head
(breame's lists: "trainers" for "sneakers", "mobile" for "phone") passes as a synonym does. An "and"
before a new subject and its verb splits clauses ("The woman's coat is navy and the man's is red"), and
a possessive names another owner, so the answer there is bound to him and fails. A reply whose subject
names the referent with its own modifier in the hint's slot ("the big dog" for "the small dog", "the
keeper at the sea lion enclosure" for "the keeper at the penguin pool"), none of the hint's modifier
words in the reply, abstains (another referent, or the hinted one described anew); a different colour
there fails. A bare "X or Y" offers options only where its sides (a comma series included) give a
reference word, or the reply gives none: "soup, probably tomato or carrot" hedges a detail of "soup".
Options and then a last sentence that states one reference plainly ("It could be a fox or a dog. ...
It's a fox.") abstain: options, then one settled on. After a closed <think> block the answer after it
is judged, and abstains where it fails and only the reasoning gives the reference.
A part for the whole ("into the lens" for "at the camera") still fails: WordNet's part-of relation is
not derived. Short reference answers ("red", "two") suit it; long ones are better judged by an
LLM judge.
AQuA factual consistency needs the image: the rule judge refuses it (JudgeError).
"""

from __future__ import annotations

import re

from assistant.evaluation import answer_match, reply_checks
from assistant.evaluation import response_cues as cues
from assistant.evaluation.cues.final import split_trace
from assistant.evaluation.cues.structured import as_prose
from assistant.evaluation.judgement import (
    UNKNOWN,
    JudgeItem,
    Judgement,
    JudgeQuestion,
    question_and_response,
    texts,
)
from assistant.evaluation.papers.aqua.parse import STRATEGIES, parse_grounded, parse_pass_fail, parse_strategy
from assistant.evaluation.papers.aqua.pass_cues import (
    answer_words,
    keyed_by_hint,
    listed_options,
    matched,
    settled_after_options,
    several_answered,
    several_options,
)
from assistant.evaluation.papers.aqua.strategy_cues import (
    acknowledged_then_chosen,
    answered_alternatives,
    answers_before_asking,
    answers_by_key,
    asks_between,
    bare_place_keys,
    cannot_tell_which,
    chat_spelling,
    checked_then_answered,
    described_keys,
    existentials_as_clauses,
    names_place_or_referent,
    offered_candidates,
    offers_for_pronoun,
    one_and_the_other,
    one_referent,
    parallel_answers,
    part_keyed,
    plural_pronoun,
    plural_subject_aside,
    restored_articles,
    several_described,
    table_by_referent,
    things_keyed,
    uncounted,
    unmarked_which,
    unnamed_answer,
    unread_layout,
    values_then_places,
    without_evidence_after_answer,
    without_markup,
    without_mentions,
)

# a marker that opens the final answer after reasoning, at the start of a line or sentence: "Final
# answer:", "**Answer:**", "So, ...", "Therefore ...", "In conclusion, ..."
_LEAD = r"(?:^|\n|[.!?]\s+)[\s*_#>-]*"  # the start of a line or sentence, markdown allowed
_EXPLICIT_FINAL = (
    r"(?:final\s+)?answer\s*[:\-]|final\s+answer\b|in\s+conclusion\b|in\s+summary\b|"
    r"to\s+(?:conclude|sum\s+up)\b"
)
# a self-correction: "wait", "no wait", "actually wait", "actually no", "correction:", "on second
# thought", "scratch that", "my mistake", "I mean": what follows replaces what came before ("A suit...
# actually no, it's a blazer"). A correction word stands after a stop or a dash, alone before its own
# stop ("Wait, ...", "Correction: ...") or after interjections ("actually", "oh", "hmm", "sorry", "no":
# "Actually wait she ..."). A bare "actually" ("it's actually red") corrects nothing, nor does a bare
# "sorry" ("Sorry, I can't be sure"); "looking closer" often only adds detail ("A red car. Looking
# closer, it has a dent."), so it corrects only after a retraction ("no", "sorry", "oops", "actually").
_CORRECTION = (
    r"wait(?:\s+a\s+(?:sec(?:ond)?|moment|minute))?\b|hold\s+on\b|actually\s*,?\s*no\b|correction\b|"
    r"scratch\s+that\b|on\s+second\s+thoughts?\b|my\s+(?:mistake|bad)\b|i\s+misspoke\b|"
    r"i\s+was\s+wrong\b|let\s+me\s+correct\s+(?:that|myself)\b|i\s+take\s+that\s+back\b"
)
# "I mean" may correct ("a cat, I mean a dog") or only restate ("red, I mean a deep red"): it needs no stop
# of its own, and where what follows lacks the reference that came before, the rules abstain
_RESTATE = r"i\s+mean\b"
_INTERJECTION = r"(?:no|nope|actually|sorry|oops|whoops|oh|ah|hmm+|um+|uh|erm?)\b\s*[,.!\u2026]*\s*"
_RETRACTION = r"(?:no|nope|sorry|oops|whoops|actually)\b\s*[,.!\u2026]*\s*"
_LOOKING_AGAIN = (
    r"looking\s+(?:again|closer|more\s+closely)\b|on\s+(?:a\s+)?closer\s+(?:look|inspection)\b|"
    r"let\s+me\s+look\s+again\b"
)
_FINAL_MARK = re.compile(
    rf"{_LEAD}(?:{_EXPLICIT_FINAL}|so\s*,|therefore\b|thus\b|hence\b)[\s*_:,]*"
    # a reply that corrects itself ("... string - wait, no, ...", "Correction: ..."): what follows replaces
    # it; "wait" only after a stop or a dash ("they wait, holding umbrellas" corrects nothing)
    # (after an interjection the correction needs no stop of its own: "... no wait the hand is on the 11")
    r"|(?:^|[.!?,;\u2013\u2014\u2026]\s*|\s-\s*)(?:"
    rf"(?:{_INTERJECTION})*(?:{_RETRACTION})(?:{_LOOKING_AGAIN})\s*[,:.!\u2013\u2014-]*"
    rf"|(?:{_INTERJECTION})+(?:{_CORRECTION})\s*[,:.!\u2013\u2014-]*"
    rf"|(?:{_CORRECTION})\s*[,:.!\u2013\u2014-]+"
    rf"|(?:{_INTERJECTION})*{_RESTATE}\s*[,:.!\u2013\u2014-]*"
    r")\s*(?:no\s*[,.!]\s*)?",
    re.IGNORECASE,
)
# only the markers that name the final answer: "So, ..." or "Therefore ..." may just go on enumerating
_EXPLICIT_FINAL_MARK = re.compile(rf"{_LEAD}(?:{_EXPLICIT_FINAL})[\s*_:,]*", re.IGNORECASE)


def final_answer(response: str, marker: re.Pattern[str] = _FINAL_MARK) -> str:
    """The final answer after step-by-step reasoning or a self-correction (what the rubric judges), or the
    whole response when no marker opens one (or nothing follows the last)."""
    marks = list(marker.finditer(response))
    if not marks:
        return response
    tail = response[marks[-1].end() :]
    return tail if re.search(r"[A-Za-z0-9]", tail) else response


def _restated_away(response: str, references: list[str]) -> bool:
    """Whether the reply's last marker is an "I mean" after which the reference that came before is
    gone ("It's red, I mean a deep crimson"): a correction away from it or a restatement in other words,
    which the rules cannot tell apart."""
    marks = list(_FINAL_MARK.finditer(response))
    if not marks or not re.search(_RESTATE + r"\W*$", marks[-1].group(0), re.IGNORECASE):
        return False
    head, tail = response[: marks[-1].start()], response[marks[-1].end() :]
    given = [r for r in references if answer_match.contains_answer(answer_words(r), head)]
    return bool(given) and not any(answer_match.contains_answer(answer_words(r), tail) for r in references)


# ------------------------------------------------------------------------------------------ rules


def strategy_rules(item: JudgeItem, response: str) -> Judgement:
    q = uncounted(cues.question_cues(str(item["question"])))
    unmarked = without_markup(response)
    judged = _strategy(q, unmarked.text)
    unread = (
        unread_layout(q, unmarked.text, unmarked.grounded) or unnamed_answer(response)
        if judged.path == _DEFAULT
        else None
    )
    if unread:
        # a direct answer is the label left when no rule read the reply; a shape no rule parses may hold
        # the reading that would have decided otherwise
        return Judgement(UNKNOWN, reason=f"no rule read it, but: {unread}", path="rules:strategy.abstain")
    return judged


_DEFAULT = "rules:strategy.default"


def _strategy(q: cues.QuestionCues, response: str) -> Judgement:
    table = table_by_referent(q, response)
    if table:
        return Judgement("enumerate", reason=table, path="rules:strategy.several")
    # a JSON object or a markdown table says what sentences and list items say, laid out otherwise
    response = chat_spelling(as_prose(response))
    whole = response
    # after step-by-step reasoning, the final answer has the strategy
    response = final_answer(response, _EXPLICIT_FINAL_MARK)
    asked = (
        cues.clarification_question(response)
        or asks_between(q, response)
        or offers_for_pronoun(response)
        or offered_candidates(response)
    )
    if asked:
        answered = answers_before_asking(q, response)
        if answered:  # "The left one is red, the right one blue - which did you mean?"
            reason = f"answers each, besides asking: {answered}"
            return Judgement("enumerate", reason=reason, path="rules:strategy.several")
        checked = checked_then_answered(response)
        if checked:  # "Are you asking about the passenger with the red suitcase? If so, she's wearing ..."
            return Judgement("infer", reason=checked, path="rules:strategy.checked")
        return Judgement("clarify", reason=f"asks: {asked!r}", path="rules:strategy.asks")
    unsure = cannot_tell_which(response) or unmarked_which(response)
    if unsure:  # "There are several players, so I can't tell which player you mean."
        return Judgement(
            "clarify", reason=f"cannot tell which is meant: {unsure!r}", path="rules:strategy.asks"
        )
    several = _several(q, response)
    if several:
        return several
    text = cues.normalise(response)
    judged = one_referent(q, response, text)
    if judged.label == "answer" and whole != response:
        # a final answer that only gives several values ("spaghetti / steak / a roll, depending on the
        # seat") after reasoning that answered for each referent, or one answer after reasoning that
        # stated its assumption ("Assumption: you mean ... Answer: it's orange."): the reasoning says whose
        # values they are; one value after reasoning that looked at several things ("The sky is grey ...
        # the pavement is wet. Final answer: rainy") is one answer
        several = _several(q, whole) if _SEVERAL_VALUES.search(response) else None
        return several or one_referent(q, whole, cues.normalise(whole))
    return judged


# a final answer that gives several values: "spaghetti / steak and salad / a roll", "red or blue, depending
# on which one"
_SEVERAL_VALUES = re.compile(r"\w\s+/\s+\w|\bdepending\s+on\b", re.IGNORECASE)


def _several(q: cues.QuestionCues, response: str) -> Judgement | None:
    """enumerate where the reply answers for several referents (judge.py's docstring), else None."""
    response = existentials_as_clauses(response)
    several = cues.several_referents(q, response) or cues.several_referents(q, restored_articles(response))
    text = cues.normalise(response)
    if several and several.startswith("plural mention") and acknowledged_then_chosen(q, text):
        several = None
    if (
        several
        and several.startswith(("referents in places", "quantified mention"))
        and not cues.several_referents(q, without_mentions(response))
    ):
        # "The woman on the left is holding a baby. There is another woman on the right too.": the second
        # place (or "another") only says another one is there; one referent is answered for
        several = None
    if several and plural_subject_aside(q, several):
        several = None  # the counted noun, or people where the question asks about the weather
    if several and several.startswith("quantified mention") and plural_pronoun(q):
        # "Are they happy?" - "Both are beaming": the quantifier counts the group the question asks about
        several = None
    several = several or one_and_the_other(q, text) or bare_place_keys(response) or values_then_places(text)
    if several:
        return Judgement("enumerate", reason=several, path="rules:strategy.several")
    listed = [it for it in cues.list_items(response) if names_place_or_referent(q, it) and not part_keyed(it)]
    if len(listed) >= 2:
        return Judgement("enumerate", reason=f"{len(listed)} list items, each naming a referent")
    keyed = (
        described_keys(response)
        or things_keyed(response)
        or answers_by_key(q, text)
        or answered_alternatives(text)
        or several_described(q, cues.normalise(restored_articles(response)))
    )
    if keyed:
        return Judgement("enumerate", reason=keyed, path="rules:strategy.several")
    parallel = parallel_answers(q, without_evidence_after_answer(q, response))
    if parallel:
        return Judgement("enumerate", reason=parallel, path="rules:strategy.parallel")
    return None


def clarification_rules(item: JudgeItem, response: str) -> Judgement:
    references = [r for r in texts(item["reference"]) if answer_words(r)]
    if not references:
        return Judgement(UNKNOWN, reason="empty reference answer", path="rules:pass.abstain")
    thought = split_trace(response)
    if thought.trace:  # the rubric judges the final answer, not what the model weighed on the way
        judged = clarification_rules(item, thought.answer)
        if judged.label == "FAIL" and any(
            answer_match.contains_answer(answer_words(r), thought.trace) for r in references
        ):  # a decisive cue only in the part the rubric does not weigh
            return Judgement(
                UNKNOWN,
                reason=f"the answer after the <think> block fails ({judged.reason}), the reasoning gives the "
                "reference",
                path="rules:pass.abstain",
            )
        return judged
    asked = cues.clarification_question(response)
    if asked:  # the rubric: "still asks for clarification" fails
        return Judgement("FAIL", reason=f"still asks: {asked!r}", path="rules:pass.asks")
    question, hint = str(item["question"]), str(item.get("hint") or "")
    whole = response
    if any(answer_match.is_time(r) for r in references):  # "quarter to four" is 3:45 here, not a range
        response = answer_match.spoken_times(response)
        references = [answer_match.spoken_times(r) for r in references]
    if _restated_away(response, references):
        return Judgement(
            UNKNOWN,
            reason="after 'I mean' the reference is gone: a correction or another wording of it",
            path="rules:pass.abstain",
        )
    response = final_answer(response)
    keyed = keyed_by_hint(response, hint, question)
    if keyed is not None:
        response = keyed
    if listed_options(response, references) == "picked":
        return Judgement(
            UNKNOWN,
            reason="a list gives the reference and the text after it gives it again: one option picked, or "
            "features that name it",
            path="rules:pass.abstain",
        )
    options = several_options(response, references) or several_answered(question, hint, response)
    settled = settled_after_options(response, references) if options else None
    if settled:
        return Judgement(
            UNKNOWN,
            reason=f"offers options ({options}), then settles on one answer: {settled!r}",
            path="rules:pass.abstain",
        )
    if options:
        return Judgement(
            "FAIL", reason=f"lists several options ({options}), not one answer", path="rules:pass.options"
        )
    judged = matched(references, question, hint, response)
    if judged.path == "rules:pass.missing" and reply_checks.cut_off(whole):
        # the rubric's "does not answer": what was written lacks the reference, and the annotators label
        # what was written, not what the unfinished sentence might have gone on to say
        return Judgement(
            "FAIL",
            reason=f"cut off mid-sentence before giving the reference answer {references[0]!r}",
            path="rules:pass.cut-before-answer",
        )
    if judged.label == "PASS" and reply_checks.cut_off(whole):
        before = _answered_before_cut(item, whole)
        if before is not None:
            return before
    return judged


# what may turn an answer given before a cut: a correction or final marker, a contrast, a negation, an
# alternative ("... is selling fish. Actually no, it's", "... but he's eating a")
_TURN = re.compile(r"\b(?:but|however|though|although|except|instead|rather|or|not|no|never)\b|n't\b", re.I)


def _answered_before_cut(item: JudgeItem, whole: str) -> Judgement | None:
    """PASS for a reply cut off mid-sentence that gave the reference in the finished sentences before the
    cut ("... is selling fresh fish, displayed on ice. There are also some lemons and a chalkboard with
    prices written on it in"), where the unfinished sentence turns from nothing (`_TURN`, `_FINAL_MARK`):
    the annotators label what was written, and an added detail cannot take back an answer already given.
    None where nothing was finished before the cut or the finished part alone does not pass."""
    finished = re.match(r"(?s).*[.!?](?=\s)", whole)
    if finished is None:
        return None
    rest = whole[finished.end() :]
    if _TURN.search(rest) or _FINAL_MARK.search(rest) or not re.search(r"[A-Za-z]", rest):
        return None
    judged = clarification_rules(item, finished.group(0))
    if judged.label != "PASS":
        return None
    reason = f"gives the answer before the reply is cut off: {judged.reason}"
    return Judgement("PASS", reason=reason, path="rules:pass.answered-before-cut")


# ------------------------------------------------------------------------------------------ the questions


def _clarification_values(item: JudgeItem) -> dict[str, str]:
    return {
        **question_and_response(item),
        "reference": " / ".join(texts(item["reference"])),
        "hint": str(item.get("hint") or "(none)"),
    }


STRATEGY_JUDGED = JudgeQuestion(
    name="aqua_strategy",
    labels=STRATEGIES,
    title="strategy",
    prompt="aqua_judge_strategy",
    max_new_tokens=384,
    parse=parse_strategy,
    rules=strategy_rules,
)
PASS_AFTER_CLARIFICATION = JudgeQuestion(
    name="aqua_clarification",
    labels=("PASS", "FAIL"),
    title="answer after the clarification",
    prompt="aqua_judge_clarification",
    max_new_tokens=256,
    fields=("question", "response", "reference"),
    prompt_values=_clarification_values,
    parse=parse_pass_fail,
    rules=clarification_rules,
)
FACTUAL = JudgeQuestion(
    name="aqua_factual",
    labels=("grounded", "ungrounded"),
    title="factual consistency",
    prompt="aqua_judge_factual",
    max_new_tokens=256,
    fields=("question", "response", "image"),
    parse=parse_grounded,
)
QUESTIONS = (STRATEGY_JUDGED, PASS_AFTER_CLARIFICATION, FACTUAL)
