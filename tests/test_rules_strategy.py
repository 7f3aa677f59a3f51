"""AQuA strategy mechanisms of the rule judge (issue 32), tested from the rubric
(prompts/aqua_judge_strategy.txt) with replies written for these tests (other scenes, nouns and sentence
shapes than the labelled sets), each with near misses the mechanism must not fire on:

- infer vs answer: a statement of what the user means ("you probably mean the X") is an assumption; a
  contracted copula ("That's a ...", "It's a ...") names the referent of a bare "this" / "it", but a
  colour, shade or look after it names nothing, and a pronoun question about a person ("What is he
  holding?") is not resolved by naming the thing held;
- enumerate vs infer: "the one ... and the other ..." answers for two, whatever noun the reply gives them;
  an acknowledged plural followed by two referents taken up by places that exclude each other enumerates,
  but places that only say where the acknowledged ones are do not;
- terse replies that drop their articles ("left cup tea, right one coffee") are read as keyed by places;
- clarify vs enumerate: a question back followed by answers for "the X at ..." and "the one at ..."
  enumerates; one followed by where the candidates are (no answers) still clarifies;
- chat spelling: "who do u mean?" asks as "who do you mean?" does;
- round 6: answers counted by what keys them (different owners, "the woman's ... and the child's ...", or
  literal values each on a thing of their own, "$3 on the mangoes, $5 on the pineapple") enumerate, also
  before a closing question; a question back made only of definite candidates clarifies; a "how many"
  question's counted noun is the answer, not several referents; for a reading question that names no
  thing, the made thing the reading was taken from ("going by the station clock") is the referent taken;
- round 9: JSON and markdown-table replies read as prose (a table headed by the referent answers per
  row); the question's participle restated, evidence pointing back at the answer, a bare mention of
  another one's place and "both" for "they" single out or add no referent; a display as the subject of
  a reply to a reading question is the referent taken.
"""

from __future__ import annotations

import pytest

from assistant.evaluation import papers
from assistant.evaluation.judges import RuleJudge
from assistant.evaluation.papers.aqua.strategy_cues import chat_spelling

RULES = RuleJudge()


def strategy(question: str, reply: str) -> str:
    return RULES.judge(papers.question("aqua_strategy"), {"question": question, "response": reply}).label


# ------------------------------------------------------------------ stated assumption: "you mean the X"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is she reading?", "You probably mean the woman on the bench; she is reading a paperback."),
        ("What is he carrying?", "I take it you mean the postman, who is carrying a parcel."),
        ("What colour is it?", "I guess you're asking about the kite: it is bright orange."),
        ("What is she drinking?", "Likely you're referring to the girl by the fountain. Lemonade, it seems."),
    ],
)
def test_statement_of_what_is_meant_infers(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # "what you mean" names nothing
        ("What is she reading?", "I'm not sure what you mean, but she is reading a paperback."),
        # asked back: a question, not a statement
        ("What is he carrying?", "Do you mean the postman or the courier?"),
    ],
)
def test_what_is_meant_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "infer"


# ------------------------------------------------------------------ contracted copula names "this" / "it"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is this used for?", "That's a whisk, for beating eggs and cream."),
        ("What is it made of?", "It's a birdhouse, built from pine boards."),
        ("What does this do?", "That's a metronome; it keeps a steady beat for musicians."),
        ("How old is this?", "It's a gramophone - from around the 1920s, I would say."),
    ],
)
def test_contracted_copula_names_the_referent(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # an attribute after "it's a" names nothing
        ("What colour is it?", "It's a deep blue."),
        ("What colour is this?", "It's a pale green, almost mint."),
        # the identification is the answer to "what kind of ... is this?"
        ("What kind of bird is this?", "That's a heron."),
        # a person pronoun: naming the held thing resolves nobody
        ("What is he holding?", "It's a fishing rod."),
        # an amount, or a time for "what time is it?": no thing named
        ("What is it?", "It's a bit blurry, but it looks like a shed."),
        ("What time is it?", "It's a quarter to five."),
        # the name may be the answer itself: "a dollar fifty", "a plate with two eggs"
        ("How much is this?", "It's a dollar fifty."),
        ("What is on it?", "It's a plate with two eggs."),
        # keeps the pronoun: no name
        ("What is this used for?", "It's used for sharpening knives."),
    ],
)
def test_contracted_copula_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) == "answer"


@pytest.mark.parametrize(
    "reply", ["It's a corkscrew.", "That's a butter churn.", "it's a sextant lol", "This is a lawn roller."]
)
def test_naming_the_thing_for_a_bare_what_is_this_answers(reply: str) -> None:
    # for a bare "What is this?" the name is the answer itself (Level 0): naming is no referent taken
    assert strategy("What is this?", reply) == "answer"


# ------------------------------------------------------------------ "the one ... and the other ..."


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is in this bowl?", "I see two bowls: the one on the tray holds soup, and the other has rice."),
        (
            "What flavour is this?",
            "The one with sprinkles is strawberry, while the other looks like vanilla.",
        ),
        ("What is this drink?", "Two glasses here - the one by the lamp seems to be cola and the other is"),
    ],
)
def test_one_and_the_other_enumerates(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # "the other end": a part, not a second referent
        ("What is he holding?", "The one in the apron is holding the other end of the rope."),
        # "the other" never answered for
        ("What is this?", "The one in your photo is a sundial."),
    ],
)
def test_one_and_the_other_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


# ------------------------------------------------------------------ acknowledged plural, two taken up


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What number is on the boat?", "There are two boats: the front one reads 7 and the back one 12."),
        (
            "What is the cat doing?",
            "I can see two cats. The cat on the left is washing; the cat on the right naps.",
        ),
        (
            "What colour is the car?",
            "There are a couple of cars; the car at the top is red, the car at the bottom is grey.",
        ),
    ],
)
def test_acknowledged_then_two_taken_up_enumerates(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # one taken up by its place, the other never answered for
        ("What breed is the dog?", "There are two dogs here, but the one on the left is a corgi."),
        ("What is the child holding?", "Among the children, the child in the back holds a kite."),
        ("What is the horse eating?", "There are several horses, but the horse in the front is eating hay."),
    ],
)
def test_acknowledged_then_one_chosen_infers(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


# ------------------------------------------------------------------ terse replies without articles


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("what is in the cup", "left cup tea, right one coffee"),
        ("what colour is the door", "front door blue; back one green i think"),
        ("whats on the shelf", "top shelf books, bottom one shoes"),
    ],
)
def test_terse_place_keys_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    "reply",
    [
        "left guy red, right guy blue",
        "top row kid blue cap; bottom row kid green",
        "front lady pearls - back lady none",
    ],
)
def test_terse_place_keys_of_other_nouns_enumerate(reply: str) -> None:
    # the keys name the wearers, not the asked thing: an answer for each wearer
    assert strategy("What colour is the hat?", reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # one place key only: one referent
        ("what is in the cup", "left cup has tea"),
        # sides of one thing are its parts, not two referents
        ("what colour is the car", "left side red, right side blue"),
        ("what colour is the flag", "top half white, bottom half red"),
        # a place inside the clause, not a key
        ("what colour is the door", "blue, with a brass knob on the left"),
    ],
)
def test_terse_place_key_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


# ------------------------------------------------------------------ a question back, then answers


def test_asks_then_answers_each_enumerates_described_ones() -> None:
    reply = "Which woman? The tall one is holding a bag, the short one has an umbrella."
    assert strategy("What is she holding?", reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        (
            "What is she holding?",
            "Which one? The woman at the till holds a receipt; the one by the shelf has a basket.",
        ),
        (
            "What is he eating?",
            "Which man? The man at the grill is eating a burger, and the one with the cap eats corn.",
        ),
        (
            "What is she wearing?",
            "Who do you mean? The girl on the swing is in a raincoat; the one near the slide wears a hoodie.",
        ),
    ],
)
def test_asks_then_answers_each_enumerates(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # only where the candidates are: no answer given
        ("What is she holding?", "Which one? There's one at the till and one by the shelf."),
        ("What is he eating?", "Which man do you mean? One is on the left and one is on the right."),
        ("What is he eating?", "Which man? The one at the grill or the one with the cap?"),
        ("What is she holding?", "Which woman? The tall one is near the bar, the short one is by the door."),
        (
            "What is she holding?",
            "Who do you mean? The girl in the hat sits behind the desk; the other is at the window.",
        ),
    ],
)
def test_asks_and_only_places_clarifies(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


# ------------------------------------------------------------------ chat spelling


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("what is she holding?", "who do u mean? there r two girls"),
        ("how tall is he", "which guy u mean?? lots of ppl here"),
        ("what's he doing", "do u mean the boy or his dad?"),
    ],
)
def test_chat_spelling_asks(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


def test_chat_letter_u_in_a_word_is_not_you() -> None:
    # the letter inside a hyphenated word ("U-boat", "u-turn") is no "you"
    assert chat_spelling("That's a U-boat; he made a u-turn") == "That's a U-boat; he made a u-turn"
    assert (
        chat_spelling("who do u mean? is ur dog the brown one")
        == "who do you mean? is your dog the brown one"
    )


# ------------------------------------------------------------------ a verb's -s is no plural noun


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # "does it show": "show" is the question's verb, not a referent noun, so "shows" is no plural
        ("What time does it show?", "The station clock shows ten past six."),
        # "Is it open?": "open" is the predicate of "it", not a referent
        ("Is it open?", "It is open until nine."),
        # a referent noun used as a verb before its object's determiner or number
        ("What is on the display?", "The oven displays 180 degrees."),
        ("What does the sign say?", "The cashier signs the receipt."),
    ],
)
def test_a_verb_s_form_is_not_a_plural_mention(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # the same -s forms as nouns: after a number or "the", or before a verb or a comma
        ("What is on the display?", "Both displays are on; the two displays show the menu."),
        ("What does the sign say?", "The signs say 'exit' and 'stairs'."),
        ("What is on the display?", "There are displays, a left one with a map and a right one blank."),
    ],
)
def test_the_plural_noun_still_counts(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


def test_the_question_syntax_makes_the_verb_and_the_predicate() -> None:
    from assistant.evaluation import response_cues as cues

    assert cues.question_cues("What time does it show?").referents == frozenset()
    assert cues.question_cues("What time does it show?").vague
    assert cues.question_cues("Is that real?").referents == frozenset()
    assert cues.question_cues("What is this used for?").referents == frozenset()
    # a noun after "this" that a verb follows stays the referent
    assert "dog" in cues.question_cues("Does this dog bark?").referents
    assert "sign" in cues.question_cues("What does this sign say?").referents
    assert "bed" in cues.question_cues("What is that bed for?").referents


# ------------------------------------------------------------------ a question back about the pronoun


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is she holding?", "who is 'she'? there are 3 women at the counter"),
        ("What colour is it?", 'What is "it"? I see a mug and a teapot.'),
        ("What is he eating?", "Who is he? There are two boys at the table."),
        ("What is he eating?", "who's he?"),
    ],
)
def test_asking_who_the_pronoun_is_clarifies(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # asked only for effect, then answered
        ("What is he eating?", "Who is he? He's the chef, and he is eating a croissant."),
        ("What is it?", "What is it? A barometer, for reading air pressure."),
        ("What is it?", "What is it? There's a brass barometer on the wall."),
    ],
)
def test_a_question_answered_at_once_does_not_clarify(question: str, reply: str) -> None:
    assert strategy(question, reply) != "clarify"


# ------------------------------------------------------------------ lists keyed by referent


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # values keyed in brackets by whose they are
        ("What number is on the jersey?", "I can make out 9 (keeper), 14 (winger) and 30 (referee)."),
        ("What colour is the kite?", "Orange (the high one) and green (the low one)."),
        # a bracketed aside inside a key leaves the key
        ("What make is the car?", "Left car: Fiat. Right car (the convertible): Mazda."),
        # keys that describe each referent by where it is or what it does there
        ("What is that bird?", "1. **Perched on the fence:** a robin\n2. **In the far corner:** a wren"),
        ("What is that?", "- **Hanging by the window -** a wind chime\n- **On the top shelf -** a clock"),
    ],
)
def test_lists_keyed_by_referent_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # attributes in brackets key no referent
        ("What is he wearing?", "A parka (olive) and boots (suede)."),
        ("What number is on the jersey?", "It's 8 (printed in white)."),
        # conditions, not places: no key says where in the image
        ("What colour is the car?", "In the sun: silver. In the shade: grey."),
        # one key alone
        ("What is that bird?", "**Perched on the fence:** a robin, I think."),
        # the keys are steps the speaker takes, leading sentences
        (
            "What is that bird?",
            "1. **Looking at the fence:** there is a bird.\n2. **Zooming in on the beak:** it is short.",
        ),
    ],
)
def test_keyed_list_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


# ------------------------------------------------------------------ candidates offered, then each answered


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is it made of?", "Either the bench or the planter. The bench is oak; the planter is clay."),
        (
            "What colour is it?",
            "Maybe the scooter or the skateboard. The scooter is mint and the skateboard is white.",
        ),
    ],
)
def test_offered_candidates_answered_in_turn_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # the answer's own thing named again, not a candidate offered
        ("What is she holding?", "She is holding a lantern, and the lantern is lit."),
        # "or" between answers, not candidates: one subject answered
        ("What is he holding?", "A rake or a hoe; the rake is rusty."),
        # a compound on the other's noun is its part
        ("What is it?", "The lamp is brass and the lampshade is linen."),
    ],
)
def test_offered_candidates_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


# ------------------------------------------------------------------ naming what a vague "it" is


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # the evidence names the whole whose part it reads: that whole is what "it" was taken to be
        ("What brand is it?", "Judging from the badge on the car door, it's a Peugeot."),
        ("How old is it?", "Based on the screen of the phone, about five years old."),
        # the reply checks its guess, then answers
        ("Is it on?", "The kettle? Yes, its light is glowing."),
        ("What does it say?", "The chalkboard? It says 'soup of the day: leek'."),
    ],
)
def test_naming_what_it_is_infers(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a part with no owner, or a material before it: "it" is not named
        ("What brand is it?", "Judging from the badge on the door, it's a Peugeot."),
        ("What brand is it?", "Going by the logo on the plastic cover, it's a Sony."),
        # no guess checked: the reply answers at once
        ("Is it on?", "Yes, its light is glowing."),
    ],
)
def test_naming_what_it_is_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) == "answer"


# ------------------------------------------------------------------ round 5: several singled out in turn


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # each referent singled out by its own description and given its own answer
        (
            "What is the horse doing?",
            "The horse by the barn is grazing, and the horse in the paddock is rolling.",
        ),
        ("How old is the girl?", "Taller girl looks about twelve, the shorter girl maybe seven."),
        ("What is the boy eating?", "boy on left eating toast, boy on right eating cereal"),
        # one conditional answer and an answer for another referent
        (
            "What is this animal?",
            "If you mean the brown animal in the pen, that's a goat; the smaller one by the trough is a lamb",
        ),
        # full answers, then a closing question
        (
            "What is the waiter carrying?",
            "The waiter near the bar is carrying a tray and the one standing by the kitchen door has a jug. "
            "Did you want one of them?",
        ),
        # values, each followed by the place of its referent
        ("What time do they show?", "3:40 on the left clock, 8:40 on the right"),
        # alternatives, each answered inline
        (
            "What is this made of?",
            "This is either the bowl on the shelf, which is clay, or the jug beside it, which is pewter.",
        ),
    ],
)
def test_several_singled_out_in_turn_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # one referent described twice: the second description says more of the first
        (
            "What is the man wearing?",
            "Since the man by the window is the only one standing, I'll go with him: a navy coat.",
            "infer",
        ),
        # a described thing of another kind is part of the answer
        (
            "What is the woman holding?",
            "The woman in the green coat is holding a mug, and the mug on the saucer is white.",
            "infer",
        ),
        # an offer to change is no second answer
        (
            "How much is this?",
            "If you mean the scarf on the mannequin, it's £20. Tell me if you meant something else.",
            "infer",
        ),
        # sides of one thing, and bare alternatives, answer for no referents in turn
        ("What colour is the jacket?", "Green on the front, grey on the back.", "answer"),
        ("What is this made of?", "It's either clay or stone.", "answer"),
    ],
)
def test_several_singled_out_near_misses(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a modifier on the answer's own thing singles out no referent
        (
            "What is the man holding?",
            "The man is holding an umbrella. He holds the umbrella with his left hand.",
        ),
        # evidence that follows the answer singles out nothing
        ("What brand is the phone?", "It's an iPhone — there's the Apple logo on the back."),
    ],
)
def test_a_description_of_another_thing_is_a_plain_answer(question: str, reply: str) -> None:
    assert strategy(question, reply) == "answer"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a subject that places the thing: a referent taken
        ("What's that?", "That tower on the hill is a water tower.", "infer"),
        # the name alone is the answer
        ("What is it?", "It's a barometer.", "answer"),
        # named, then placed: the rule cannot say which
        ("What is this?", "This is a sundial in the garden.", "unknown"),
        # a demonstrative before a verb is the pronoun itself
        ("What is that?", "That looks like a sundial.", "answer"),
    ],
)
def test_identity_questions(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Is it broken?", 'Is "it" the lamp or the chair? I want to check before answering.'),
        ("What does it say?", 'what is "it" here — the sign, the poster or the mug?'),
        ("Is it cold?", "Is it the soup or the lemonade? They were served at different times."),
        (
            "What is the runner wearing?",
            "There are a few runners in the shot, so I can't tell which runner you mean.",
        ),
        ("What is the runner wearing?", "Not sure which one you're asking about. Could you point to it?"),
    ],
)
def test_asking_without_which_clarifies(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # it says it cannot tell, and answers anyway for one
        (
            "What is the runner wearing?",
            "I can't tell which runner you mean, but the one in front wears a red vest.",
        ),
        # a question to itself, answered, with no alternatives offered
        ("Is it ripe?", "Is it ripe? Yes, the mango is ripe."),
        # an offer of formats, not of referents
        ("How much is it?", "It costs 12 euros. Would you like the price in dollars or pounds?"),
    ],
)
def test_asking_without_which_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "clarify"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # one thing cited for a vague question: its referent or only its evidence; the rule abstains
        ("What time of day is it?", "Judging by the light, it's evening.", "unknown"),
        # a plural, or a list of things, names no one referent
        ("What time is it?", "Judging by the shadows, it's late afternoon.", "answer"),
        (
            "What room is this?",
            "This is a bathroom — you can see the bath, the basin and a towel rail.",
            "answer",
        ),
    ],
)
def test_one_thing_cited_as_evidence(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# --------------------------------------------------------- answers counted by what keys them (round 6)


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # clauses keyed by different owners, then a closing question: answered, then asked which
        (
            "What colour is the umbrella?",
            "The man's umbrella is navy and the girl's is bright pink. Which did you want?",
        ),
        ("What is the dog wearing?", "The boy's dog has a red harness and the woman's wears a tartan coat."),
        # literal values each tied to a thing of their own
        ("How much is it?", "£1.20 on the lemons and £2.00 for the melon. Which one were you after?"),
        ("What's the price?", "$3 on the mangoes, $5 on the pineapple."),
    ],
)
def test_answers_keyed_by_owner_or_thing_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) == "enumerate"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # possessives with no answer after them are the candidates of the question back
        (
            "What colour is the umbrella?",
            "There are two umbrellas, the man's umbrella and the girl's umbrella. Which one do you mean?",
            "clarify",
        ),
        # clauses that only place their owners' things answer nothing
        (
            "What colour is the umbrella?",
            "The man's umbrella is by the door and the girl's is on the bench. Which one?",
            "clarify",
        ),
        # the question names the owner: the other owner's thing is no plausible referent
        (
            "What colour is the man's umbrella?",
            "The man's umbrella is navy and the girl's is pink.",
            "answer",
        ),
    ],
)
def test_answers_keyed_near_misses(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # values on parts of one thing, or on things not of the asked kind
        ("What colour is the car?", "Red on the roof and white on the doors."),
        ("What colour is the car?", "Red on the van, blue on the lorry."),
    ],
)
def test_values_on_parts_or_other_kinds_do_not_enumerate(question: str, reply: str) -> None:
    assert strategy(question, reply) != "enumerate"


# ------------------------------------------------------------------ a question back made only of candidates


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What does it say?", "The mug, the sign or the poster?"),
        ("Is it ripe?", "Hmm, the mango or the pear?"),
        ("What is it made of?", "made of what exactly? erm, the chair or the table?"),
    ],
)
def test_bare_candidates_asked_clarify(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # indefinite alternatives are a hedged answer, not candidates in the scene
        ("What animal is that?", "A fox or a dog?"),
        # answered first: the alternatives only check it
        ("What colour is it?", "It's bright red. The kite or the balloon?"),
    ],
)
def test_bare_candidates_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "clarify"


# --------------------------------------------------------- "how many": the counted noun is the answer


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("How many boats are there?", "I count seven boats in the harbour.", "answer"),
        ("How many cyclists can you see?", "I can see four cyclists.", "answer"),
        # the container is the referent: answers for two of them enumerate
        (
            "How many people are on the bus?",
            "The bus on the left has twelve people and the one on the right has three.",
            "enumerate",
        ),
        ("How many ducks are there?", "Which pond do you mean?", "clarify"),
        # a count broken down by place: one answer or one per group
        ("How many ducks are there?", "Six ducks: four on the pond and two on the bank.", "unknown"),
    ],
)
def test_how_many_counts(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------------------ the display a reading was taken from


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What time is it?", "Going by the station clock, it's 6:05."),
        ("What's the temperature?", "Judging by the thermometer by the door, about 18 degrees."),
        ("What is the score?", "It's 3-0, going by the electronic scoreboard behind the goal."),
    ],
)
def test_display_read_from_infers(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # no made thing read: what the answer rests on
        ("What time is it?", "Judging by the shadows, it's late afternoon.", "answer"),
        # the question names its thing: the evidence is a part of it
        ("What brand is the laptop?", "A Dell, going by the logo on the lid.", "answer"),
        # not a reading: the thing cited is evidence for a category
        ("What sport is this?", "Judging by the ball, it's rugby.", "unknown"),
        ("What is the score?", "The score is 3-0.", "answer"),
    ],
)
def test_display_read_from_near_misses(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# a described noun of another kind than the referent (a seat, a vehicle ridden, a part) singles out no
# referent; a described referent does; narrower kinds answered in turn enumerate
@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("What is the man doing?", "The man is leaning against the railing reading a newspaper.", "answer"),
        ("What is the boy doing?", "The boy is riding the skateboard down the ramp.", "answer"),
        ("What brand is the phone?", "It's a Samsung Galaxy — the logo on the back is visible.", "answer"),
        ("What is the man doing?", "The man on the left is reading a newspaper.", "infer"),
        (
            "What colour is the car?",
            "There are two cars by the kerb. The estate car is silver, and the small taxi behind it is "
            "yellow.",
            "enumerate",
        ),
        (
            "What colour is the car?",
            "The estate car is silver, and the lamp post behind it is black.",
            "infer",
        ),
    ],
)
def test_a_referent_must_be_of_the_asked_kind(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: the subject names the pronoun's referent


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a definite subject with a name the question lacks: the referent taken ("The hot dog has ...")
        ("What colour is it?", "The umbrella by the door is a faded green."),
        ("How hot should I set this?", "The oven dial (the left one) goes to 180 for this recipe."),
        ("What does that say?", "The sign above the café door says 'Closed on Mondays'."),
        # a topic phrase that names the container answered about
        ("How many are there?", "In the fruit bowl, there are six apples."),
        # an elliptic "how many": the counted noun is what it was about
        ("How many are left?", "Three biscuits are left on the plate."),
        # a person's pronoun: the subject describes which person
        ("Is he smiling?", "The boy holding the kite, in the blue cap, is grinning widely."),
    ],
)
def test_subject_names_the_pronouns_referent(question: str, reply: str) -> None:
    assert strategy(question, reply) == "infer"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the question's own word as subject names nothing new
        ("What colour is it?", "The colour is a faded green.", "answer"),
        # the image as subject
        ("What is this?", "The photo shows a vintage typewriter.", "answer"),
        # the name after the question's pronoun is the answer of a bare "What is this?"
        ("What is this?", "This is a vintage typewriter.", "answer"),
        # a generic person noun for "he": no more than the pronoun
        ("Is he smiling?", "The man is grinning widely.", "answer"),
        # the question names its referent: not a pronoun-only question
        ("What colour is the umbrella?", "The umbrella's canopy is a faded green.", "answer"),
        # a counted noun the question already counts
        ("How many apples are there?", "Six apples are in the bowl.", "answer"),
    ],
)
def test_subject_names_the_pronouns_referent_near_misses(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: clauses after an introducing colon


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the colon opens the answers: each definite subject answered in the same frame
        (
            "What does this cost?",
            "Two things are on the shelf: the kettle is £20 and the toaster is £25.",
            "enumerate",
        ),
        # garments are things in their own right for a "this" that names no person
        (
            "What's this made of?",
            "The rack holds two: the glove is leather, and the scarf next to it is wool.",
            "enumerate",
        ),
        # near miss: garments of one person's outfit
        ("What is she wearing?", "Her outfit: the jacket is denim and the scarf is wool.", "answer"),
    ],
)
def test_clauses_after_an_introducing_colon(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


def test_one_subject_after_a_colon_is_no_enumeration() -> None:
    assert strategy("What does this cost?", "Price check: the kettle is £20.") != "enumerate"


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a final answer of several values after reasoning that answered for each referent
        (
            "What is in the cup?",
            "Step 1: I see the mum's cup and the boy's cup. Step 2: the mum's cup has tea, the boy's has "
            "hot chocolate.\nAnswer: tea / hot chocolate, depending on the cup.",
            "enumerate",
        ),
        # near miss: one value after reasoning that looked at several things as evidence
        (
            "What season is it?",
            "Step 1: The trees are bare. Step 2: the ground is white and the pond is frozen.\n"
            "Final answer: winter.",
            "answer",
        ),
    ],
)
def test_final_answer_of_several_values(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: the speaker's aside answers nothing


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a question back made of longer candidates, then the speaker's reason for asking
        (
            "What is the woman holding?",
            "The woman by the fountain, or the one sitting on the steps with the pram? I'd rather not guess.",
        ),
        # "not sure which" with a dash, then an offer of what the speaker will do
        (
            "What is the horse eating?",
            "Can't tell which horse you mean - there are several by the fence. Tell me and I'll describe it.",
        ),
    ],
)
def test_speaker_aside_leaves_a_clarification(question: str, reply: str) -> None:
    assert strategy(question, reply) == "clarify"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a perception reports the scene: something is answered
        (
            "What is the woman holding?",
            "The woman by the fountain, or the one on the steps? I don't see anything in their hands.",
        ),
        # an answer after the "not sure which"
        (
            "What is the horse eating?",
            "Not sure which horse you mean - the grey one is eating hay. I'll describe the rest if asked.",
        ),
    ],
)
def test_speaker_aside_near_misses(question: str, reply: str) -> None:
    assert strategy(question, reply) != "clarify"


# ---------------------------------- round 8: an acknowledged plural, then the question's pronoun


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the plural only says who is there; the answer is in the question's own pronoun
        (
            "What is he holding?",
            "There are dozens of fans in the stands. He is holding a striped scarf.",
            "answer",
        ),
        ("What colour is her hat?", "I see a crowd of shoppers outside. Her hat is a deep green.", "answer"),
        # near miss: the plural is answered for as a whole
        (
            "What is he holding?",
            "There are two boys on the bench; they are both holding ice creams.",
            "enumerate",
        ),
    ],
)
def test_acknowledged_plural_then_the_questions_pronoun(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: an activity and a state are one frame


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # two referents of the asked kind, one doing something, one in a state: answered in turn
        (
            "What is the dog doing?",
            "The terrier is chasing a ball, and the spaniel by the gates is asleep.",
            "enumerate",
        ),
        # a plural noun after "the" is no verb: the clause's verb is still found
        (
            "What is the runner doing?",
            "The sprinter is stretching, and the marathoner near the hurdles is seated.",
            "enumerate",
        ),
        # near miss: the asked referent set against another kind of thing
        ("What is the dog doing?", "The dog is asleep on the rug and the cat is eating.", "answer"),
        # near miss: one referent, a plural noun after a preposition
        ("What is the runner doing?", "The runner behind the hurdles is stretching.", "infer"),
    ],
)
def test_activity_and_state_are_one_frame(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: asked, then answered for one and the other


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        (
            "What is the woman doing?",
            "Do you mean the woman at the desk or the one by the printer? The one at the desk is typing and "
            "the other one is making copies.",
            "enumerate",
        ),
        # near miss: after the question, only where the two are
        (
            "What is the woman doing?",
            "Do you mean the woman at the desk or the one by the printer? The one at the desk is near the "
            "window and the other is by the door.",
            "clarify",
        ),
    ],
)
def test_asked_then_answered_for_one_and_the_other(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: one thing picked against another


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        (
            "What does the label say?",
            "Reading the jar, not the bottle next to it - the label says 'Honey'.",
            "infer",
        ),
        ("How full is it?", "The mug rather than the jug on the tray is about half full.", "infer"),
        # near misses: a colour, a place or one thing's part contrasted, not two candidates
        ("What colour is the car?", "It's the deep red, not the maroon you might expect.", "answer"),
        ("Where is the cat?", "It sits on the left, not the right.", "answer"),
        ("What is broken on the chair?", "The leg, not the seat, is cracked.", "answer"),
    ],
)
def test_one_thing_picked_against_another(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# --------------------------------- round 8: items keyed by referents, then an offer to narrow


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        (
            "What is the boy eating?",
            "Two boys here:\n- **Boy at the table:** a bowl of cereal\n- **Boy on the sofa:** "
            "a slice of toast\n"
            "Let me know which one you meant if it matters.",
            "enumerate",
        ),
        # near miss: the keyed items only list the candidates, as a question
        (
            "What is the boy eating?",
            "Two boys here:\n- **Boy at the table:** is it him?\n- **Boy on the sofa:** or him?\n"
            "Let me know which one you meant.",
            "clarify",
        ),
    ],
)
def test_keyed_answers_then_an_offer(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: the asked noun restated, a side described


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the scene's players are context; "the game is ..." restates the answer; "the far end" is where
        (
            "What game is being played?",
            "The pitcher is winding up while the catcher crouches at the far end. The game is baseball.",
            "answer",
        ),
        # near miss: a referent described by the side it is on
        ("What is the player doing?", "The player at the far end is serving.", "infer"),
        # near miss: two referents of the asked kind, each answered
        ("What is the player doing?", "The pitcher is winding up, and the catcher is crouched.", "enumerate"),
    ],
)
def test_asked_noun_restated_and_side_described(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 8: list items keyed by one referent's parts


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the one referent described part by part, place words in keys and answers notwithstanding
        (
            "What is the woman wearing?",
            "- **Head:** a straw sun hat with a ribbon at the front\n- **Upper body:** a white linen shirt\n"
            "- **Lower body:** cropped jeans\n- **Feet:** leather sandals",
            "not enumerate",  # a list no rule parses further abstains
        ),
        # near miss: referents keyed, each placed by a part of the scene
        (
            "What is the woman wearing?",
            "- **Woman at the front:** a straw sun hat\n- **Woman at the back:** a red scarf",
            "enumerate",
        ),
    ],
)
def test_items_keyed_by_parts_answer_for_one(question: str, reply: str, expected: str) -> None:
    if expected == "not enumerate":
        assert strategy(question, reply) != "enumerate"
    else:
        assert strategy(question, reply) == expected


# ------------------------------------------------------ round 9: structured replies (JSON, markdown tables)


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a JSON reply asks as its text does: the field names label the layout
        (
            "What is the cyclist wearing?",
            '{"type": "question", "text": "Which cyclist? I can see four."}',
            "clarify",
        ),
        ("What is the cyclist wearing?", '{"answer": "a yellow jersey"}', "answer"),
        # a list of objects, one per referent, each placed
        (
            "What is the cat doing?",
            '{"cats": [{"where": "left", "doing": "sleeping"}, {"where": "right", "doing": "eating"}]}',
            "enumerate",
        ),
        # a table whose first column is the asked referent: one row each
        (
            "What is the dog chewing?",
            "| dog | chewing |\n|---|---|\n| terrier by the sofa | a slipper |\n| puppy (basket) | a ball |",
            "enumerate",
        ),
        # rows numbered under the referent's header
        (
            "What is the cook making?",
            "| Cook | Station | Making |\n|---|---|---|\n| 1 | grill | burgers |\n| 2 | fryer | chips |",
            "enumerate",
        ),
        # near miss: a table of one referent's garments, keyed by item, is no row per referent
        (
            "What is the nurse wearing?",
            "| Item | Colour |\n|---|---|\n| tunic | teal |\n| trousers | navy |",
            "not enumerate",
        ),
        # near miss: a table with one row answers for one
        (
            "What is the dog chewing?",
            "| dog | chewing |\n|---|---|\n| terrier | a slipper |",
            "not enumerate",
        ),
    ],
)
def test_structured_replies(question: str, reply: str, expected: str) -> None:
    if expected == "not enumerate":
        assert strategy(question, reply) != "enumerate"
    else:
        assert strategy(question, reply) == expected


def test_structured_replies_read_as_prose() -> None:
    from assistant.evaluation.cues.structured import as_prose

    assert as_prose('{"answer": "a kite"}') == "a kite."
    assert as_prose("| bird | colour |\n|---|---|\n| 1 | blue |") == "- bird 1: blue"
    assert as_prose("Not a table | just a bar") == "Not a table | just a bar"
    assert as_prose("{not json") == "{not json"


# ------------------------------------------------------ round 9: the question's predicate restated


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the reply repeats the question's participle, then answers: a restatement, no description
        ("What is the baker making?", "baker making bread rolls at counter.", "answer"),
        ("Where was this picture painted?", "It looks to have been painted in a harbour town.", "answer"),
        # near miss: a description of the referent before the predicate singles one out
        ("What is the baker making?", "The baker at the back counter is making bread rolls.", "infer"),
        # near miss: another participle than the question's describes the referent
        (
            "What is the man standing by the car holding?",
            "The man leaning on the fence is holding a leash.",
            "infer",
        ),
    ],
)
def test_asked_predicate_restated(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 9: the referent left out, named as subject


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a topic phrase closed by a colon names what "it" was taken to be (a compound WordNet lacks)
        ("What does it say?", 'On the noticeboard: "Choir practice cancelled".', "infer"),
        # a reading question names no display: the display as subject is the one read
        ("What's the temperature?", "The thermometer by the back door shows 18 degrees.", "infer"),
        # near miss: the reading's own word as subject names nothing
        ("What's the temperature?", "The temperature is 18 degrees.", "answer"),
        # near miss: who the reading is about is no display
        ("What's the score?", "The visiting side lead 3-0.", "answer"),
        # near miss: "it" kept as the subject
        ("What does it say?", 'It says "Choir practice cancelled".', "answer"),
    ],
)
def test_left_out_referent_named_as_subject(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 9: mentions and groups that answer nothing


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # another referent only said to be there, by its place: one answered
        (
            "What is the boy eating?",
            "The boy on the right is eating a pear. There's also a boy on the left.",
            "infer",
        ),
        # near miss: the other one answered too
        (
            "What is the boy eating?",
            "The boy on the right is eating a pear. There's also a boy on the left, eating grapes.",
            "enumerate",
        ),
        # "both" for a question about "they" counts the group asked about
        ("Are they tired?", "Yes, both are worn out after the hike.", "answer"),
        # near miss: "both" for a question about one referent
        ("Is he tired?", "Yes, both are worn out after the hike.", "enumerate"),
        # evidence after the answer that points back at it singles out nothing
        (
            "What is this building?",
            "This is a fire station — the red doors, the engine in the bay and the hose tower all point to "
            "that.",
            "answer",
        ),
        # near miss: the referent described before the evidence still singles one out
        (
            "What is this building?",
            "The building on the left is a fire station - the red doors point to that.",
            "infer",
        ),
    ],
)
def test_mentions_groups_and_evidence(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------------------ round 10: markup read, fragile defaults


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a reasoning block in tags is dropped; the answer after it is judged
        (
            "What is the girl riding?",
            "<think>Two wheels, pedals, a small frame; she is on the saddle.</think><answer>She is riding a "
            "bicycle.</answer>",
            "answer",
        ),
        (
            "What is the man carrying?",
            "\u25c1think\u25b7He has a long board under one arm.\u25c1/think\u25b7He's carrying a surfboard.",
            "answer",
        ),
        # a grounded caption with one phrase reads as its words
        (
            "What is the woman holding?",
            "<grounding><phrase>The woman</phrase><object><patch_index_0012><patch_index_0700></object> is "
            "holding an umbrella.",
            "answer",
        ),
        # several grounded phrases: the model located several things, which no rule reads: abstain
        (
            "What is the dog doing?",
            "<grounding><phrase>A puppy</phrase><object><patch_index_0101><patch_index_0400></object> "
            "chewing a shoe and <phrase>an old dog</phrase><object><patch_index_0600><patch_index_0900>"
            "</object> asleep",
            "unknown",
        ),
    ],
)
def test_markup_read_or_abstained(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # an arrow from what was resolved to what it is: a reading no rule parses
        ("What is this?", "Resolved: item under the lamp -> stapler. It is a stapler.", "unknown"),
        # the user spoken of in words the assumption cues do not read
        ("What colour is it?", "Judging by where your finger is, it's teal.", "unknown"),
        # near miss: a generic "you can see" is the speaker's evidence
        ("What brand is the watch?", "It's a Casio - you can see the logo on the dial.", "answer"),
        # near miss: "you" inside what a sign says
        ("What does the sign say?", 'It says "Thank you for shopping".', "answer"),
        # short values keyed by labels the rules do not read as referents
        ("What time does the clock say?", "Paris: 09:10\nSydney: 18:10\nLima: 03:10", "unknown"),
        # near miss: keys that title the steps and the answer
        ("What is the cat on?", "Step 1: look down\nStep 2: a rug\nAnswer: a rug", "answer"),
        # a question that no question-back cue reads
        ("What is the man holding?", "A bat, or maybe a racket? Hard to say from here.", "unknown"),
        # a kind of the asked referent, named definite, that no rule read: which one, or its name
        ("What is the bird doing?", "The magpie is hopping about.", "unknown"),
        # near miss: the person a pronoun names
        ("What is she holding?", "The woman is holding a kite.", "answer"),
        # near miss: the asked category given ("room" has kinds, but this is the answer)
        ("What room is this?", "This is a bathroom.", "answer"),
        # the asked noun in the plural, no rule reading it
        ("What number is on the shirt?", "The numbers are 7 and 11.", "unknown"),
        # near miss: the verb "shows" is no plural of a noun the question asks
        ("What time does the clock show?", "The clock shows ten past two.", "answer"),
        # the asked referent placed on a side of the image: which one it took, or where the one is
        ("What is the man doing?", "The man is standing by the van on the left, unloading boxes.", "unknown"),
        ("What is she doing?", "She's in the background, waving at someone.", "unknown"),
        # near misses: a place in the scene, a side of the referent's own body, the question's own side
        ("What is the dog doing?", "The dog is lying in the middle of the road.", "answer"),
        ("What is the man holding?", "He's holding a torch in his left hand.", "answer"),
        ("What is the man on the left doing?", "The man on the left is unloading boxes.", "answer"),
    ],
)
def test_default_abstains_on_unread_shapes(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a question back with no "?" (chat style), answering nothing besides
        ("What colour is the kite?", "which kite lol, there's like 3 up there", "clarify"),
        ("Who is the author?", "which book, there are a few on the shelf", "clarify"),
        # near miss: "which" opening a relative clause answers
        ("Is the shop open?", "Yes. Which is lucky, it closes at six.", "answer"),
        # near miss: an answer besides the "which"
        ("What colour is the kite?", "which one lol, the big kite is red", "infer"),
    ],
)
def test_unmarked_which_question(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # one candidate checked as a question, then answered for on that condition: infer
        (
            "What is the chef holding?",
            "Do you mean the chef by the oven? If so, he's holding a wooden spoon.",
            "infer",
        ),
        # near miss: what follows "if so" is the speaker's request, not an answer
        (
            "What is the chef holding?",
            "Do you mean the chef by the oven? If so, I'll need a sharper photo.",
            "clarify",
        ),
        # near miss: two candidates offered: a clarification
        (
            "What is the chef holding?",
            "Do you mean the chef by the oven or the one at the sink? If so, let me know.",
            "clarify",
        ),
        # a referent described by what the user does to it is the one taken
        ("How much is it?", "The jar you're pointing at is \u00a33.", "infer"),
        ("What is this?", "The gadget you're holding is a garlic press.", "infer"),
        # near miss: "what you're looking at" names no referent
        ("What is this?", "What you're looking at is a garlic press.", "unknown"),
    ],
)
def test_checked_referent_and_user_attention(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a colon after a clause that says the question's predicate of one subject opens its evidence
        (
            "Is it fresh?",
            "The loaf on the board looks fresh: golden crust, and the crumb is soft.",
            "infer",
        ),
        # near miss: a colon after an introduction opens answers for each
        (
            "What is this made of?",
            "The shelf holds two things: the jug is copper, and the bowl is glass.",
            "enumerate",
        ),
        # near miss: a plural before the colon is taken up one by one
        (
            "Is it fresh?",
            "The loaves are fresh: the big loaf is warm, and the small loaf is crusty.",
            "enumerate",
        ),
    ],
)
def test_evidence_after_an_answered_colon(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# round 11: a description is a referent phrase only where its noun is a noun in place
@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a noun phrase introduced by "a" / "an" is a new thing the answer brings, not a referent picked out
        (
            "Does the flat have a balcony?",
            "Yes - a small south-facing balcony with room for two chairs.",
            "answer",
        ),
        # the clause's verb after its subject is no described noun ("the copy hangs ...", "isn't ...")
        (
            "Who wrote the novel?",
            "Jane Austen wrote it in 1813. The manuscript hangs in a library - the one here is a reprint.",
            "answer",
        ),
        # near miss: a definite description placed in the scene still singles one out
        ("What breed is the dog?", "The dog by the fireplace is a beagle.", "infer"),
        # an offer that names another candidate and asks the user to say so answers nothing for it
        (
            "What kind of bird is that?",
            "The big one on the fence is a magpie. "
            "If you meant the small one hopping on the lawn, just let me know.",
            "infer",
        ),
        # near miss: a conditional answer for the other candidate is a second answer
        (
            "What kind of bird is that?",
            "The big one on the fence is a magpie, and the small one hopping on the lawn is a robin.",
            "enumerate",
        ),
    ],
)
def test_description_nouns_in_place(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a plural picks out a group, not the one referent of a singular question
        (
            "What is the season?",
            "It looks like autumn, with orange leaves everywhere. "
            "The children in the garden are wearing scarves.",
            "answer",
        ),
        # a "how many" question's counted noun as a plural subject is the answer's own things
        (
            "How many chairs are in the room?",
            "There are 6 chairs in the room. The chairs by the table are wooden.",
            "answer",
        ),
        # near miss: a plural subject of the asked kind speaks of several referents
        ("What is the horse doing?", "The horses in the paddock are grazing.", "enumerate"),
    ],
)
def test_plurals_that_are_not_the_referents(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # the thing of a possessive pronoun put on an owner the reply names: the referent taken
        ("What's wrong with its paw?", "The kitten's front paw has a small thorn stuck in it.", "infer"),
        # near miss: a person's generic noun for "his" names no more than the pronoun
        ("What colour is his jacket?", "The man's jacket is dark green.", "answer"),
        # near miss: the question's own noun as the owner names nothing new
        ("What is the cat's collar made of?", "The cat's collar is leather.", "answer"),
    ],
)
def test_owner_of_a_possessive_pronoun(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # evidence's whole must be a noun: "the ribbed leaves" are leaves of a shape, not of a ribbed thing
        ("What kind of plant is that?", "That is a fern, judging by the feathered fronds.", "answer"),
        # near miss: a noun before the part names the whole taken for "it"
        ("What make is it?", "Going by the logo on the printer lid, this is an Epson.", "infer"),
        # a reading off a display named bare: the obvious display or the one taken
        ("What's the temperature?", "The thermometer reads 21 degrees.", "unknown"),
        # near miss: a described display says which one it took
        ("What's the temperature?", "The thermometer by the back door reads 21 degrees.", "infer"),
        # a thing named for a bare "what is this?" and then placed in the scene: answer or referent
        ("What is this?", "It's a kettle. It sits on the kitchen counter and boils water fast.", "unknown"),
        # near miss: a place with "a" describes the thing itself
        ("What is this?", "It's a vase, with blue flowers painted on a white glaze.", "answer"),
    ],
)
def test_evidence_displays_and_named_things(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # "which N are you ...": a question back to the user without its "?"
        (
            "What is the boat doing?",
            "there are lots of boats in this harbour, which boat do you mean",
            "clarify",
        ),
        # near miss: "which one is ..." is about a referent, not the user
        ("What is the boat doing?", "The boat is sailing, which is why its sails are up.", "answer"),
        # a question offering alternatives after sentences that only say what is there: no rule reads it,
        # and its described candidate is no referent answered for
        (
            "What number is he?",
            "Wait, there are three riders in the shot! "
            "Rider 12, rider 30, or the one leading on the red bike?",
            "unknown",
        ),
        # near miss: a described referent answered for, then an offer
        ("What number is he?", "The rider leading on the red bike is number 12. Want the others?", "infer"),
    ],
)
def test_questions_back_unread_shapes(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # items keyed by definite things of different kinds, each a short answer
        ("Is it switched on?", "The kettle: yes.\nThe toaster: no, unplugged.", "enumerate"),
        # near miss: one thing's fields keyed by attributes
        ("What is it?", "The colour: red.\nThe size: large.", "answer"),
    ],
)
def test_items_keyed_by_things(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


# ------------------------------------------------------ round 12: fields in YAML, key=value logs and XML


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a YAML reply asks in its quoted prompt: the field names label the layout, as JSON's do
        (
            "What is the waiter carrying?",
            'mode: ask\nmessage: "Which waiter, the one at the bar or the one by the window?"\nanswer: null',
            "clarify",
        ),
        # a key=value log's quoted question asks
        (
            "Which bus is this?",
            'state=pending question="which bus: the double-decker or the minibus?" result=none',
            "clarify",
        ),
        # XML fields: the referent field singles out what "this" was taken to be, the answer tag alone
        # would drop it
        (
            "What's on this?",
            "<target>the plate with the blue rim</target><answer>two slices of toast</answer>",
            "infer",
        ),
        # a log with a record per thing, each placed
        (
            "What is the horse eating?",
            "obj=horse_left food=hay | obj=horse_right food=carrots",
            "enumerate",
        ),
        # fields with no answer field: only their names say which is the referent taken
        ("Is it on?", "target=desk_lamp(left) source=pointing status=on", "unknown"),
        # near misses: an answer field with a score or a state answers
        ("What breed is it?", "answer: beagle\nscore: 0.81", "answer"),
        ("Is it on?", "answer=yes status=lit conf=0.92", "answer"),
        ("What's in the box?", "<answer>three apples</answer>", "answer"),
        # near miss: lowercase keys without a serialiser's mark are a person's list keyed by places
        ("What is the man holding?", "left: a ladder\nright: nothing", "enumerate"),
        # near miss: prose with a colon is no YAML (a capitalised label, one line)
        ("What colour is the kite?", "Colour: bright orange with a long tail.", "answer"),
    ],
)
def test_fields_in_other_layouts(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


def test_fields_read_as_prose() -> None:
    from assistant.evaluation.cues.structured import as_prose, fields

    assert fields("mode: ask\nanswer: null") == {"mode": "ask", "answer": None}
    assert fields('a=1 b="two words"') == {"a": "1", "b": "two words"}
    assert as_prose("obj=horse_left food=hay | obj=horse_right food=carrots") == (
        "- horse left, hay\n- horse right, carrots"
    )
    assert fields("<a>x</a><b>y</b>") == {"a": "x", "b": "y"}
    # near misses: prose, an equation in a sentence, nested or attributed XML
    assert fields("The sign says: stop.") is None
    assert fields("It shows x=3 on the board") is None
    assert fields('<a k="v">x</a>') is None
    assert as_prose("Tokyo: 7:40\nLondon: 23:40") == "Tokyo: 7:40\nLondon: 23:40"
    # a person's list keyed by places, no serialiser's mark: its keys stay
    assert fields("left: a ladder\nright: nothing") is None
    assert fields("left=ladder right=nothing") is None


# ------------------------------------------------------ round 12: apposition and existential relatives


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # "the one ..." set off by commas renames the description before it: one referent
        (
            "What is the boy eating?",
            "The boy on the bench, the one in the red cap, is eating an apple.",
            "infer",
        ),
        (
            "How tall is this tower?",
            "The stone tower by the river, the one with the flag, is about forty metres tall.",
            "infer",
        ),
        # near miss: "the one ..." with an answer of its own after the first's answer
        (
            "What is the boy eating?",
            "The boy on the bench is eating an apple, the one in the red cap is eating a pear.",
            "enumerate",
        ),
        # an existential whose relative clause answers for what it introduces answers for a second one
        (
            "What does the thermometer read?",
            "The thermometer by the door reads 21 degrees. There's also a thermometer on the fridge, which "
            "reads 4 degrees.",
            "enumerate",
        ),
        (
            "What is the dog chewing?",
            "The dog by the sofa is chewing a slipper. There's also a dog in the basket that chews a ball.",
            "enumerate",
        ),
        # near misses: an existential that only mentions another one, or introduces a thing of no
        # answer's kind
        (
            "What does the thermometer read?",
            "The thermometer by the door reads 21 degrees. There is another thermometer on the fridge.",
            "infer",
        ),
        (
            "What is the woman holding?",
            "The woman on the left is holding a red umbrella. There is a bench that she is standing next to.",
            "infer",
        ),
    ],
)
def test_apposition_and_existential_relatives(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


def test_existentials_as_clauses() -> None:
    from assistant.evaluation.papers.aqua.strategy_cues import existentials_as_clauses

    assert existentials_as_clauses("A. There's also a clock on the oven, which shows 7:08.") == (
        "A. the clock on the oven shows 7:08."
    )
    assert existentials_as_clauses("There is another cat here that sleeps.") == "the other cat here sleeps."
    assert existentials_as_clauses("There is a cat on the mat.") == "There is a cat on the mat."


# ------------------------------------------------------ round 12: questions back, guesses and conditions


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # a question back, then each offered candidate answered by its bare noun
        ("What colour is it?", "Do you mean the scarf or the hat? Scarf is red, hat is navy.", "enumerate"),
        # near miss: the candidates only said to be there
        ("What colour is it?", "Do you mean the scarf or the hat? Both hang by the door.", "clarify"),
        # a guess put as a question, then a request to confirm, nothing answered: asks
        (
            "What breed is that dog?",
            "I assume you mean the dog on the porch? Please confirm. There is another dog by the gate.",
            "clarify",
        ),
        # near misses: the guess checked and answered for, or stated and answered for
        ("What breed is that dog?", "You mean the dog on the porch? It's a beagle.", "infer"),
        ("What breed is that dog?", "I assume you mean the dog on the porch. It's a beagle.", "infer"),
        # a condition on what the question is about, one referent answered for on it
        ("Is the animal asleep?", "If the question is about the puppy, yes, it is curled up.", "infer"),
        # near miss: two conditions, each answered
        (
            "Is the animal asleep?",
            "If the question is about the puppy, yes; if your question is about the cat, no, it is awake.",
            "enumerate",
        ),
    ],
)
def test_questions_guesses_and_conditions(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected
