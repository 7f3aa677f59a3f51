"""The rule judge's CoT-mention question (RAcQUEt G.3, issue 32): the ways a step mentions
several instances of the asked entity, and the readings too weak to decide, which abstain (unknown with a
reason) instead of a confident NO. Every reply here is written for these tests from the rubric, with near
misses each mechanism must not fire on."""

from __future__ import annotations

import pytest

from assistant.evaluation import papers
from assistant.evaluation.judges import RuleJudge

RULES = RuleJudge()
COT = " Please explain your reasoning step by step before providing the final answer."


def cot(question: str, reply: str) -> tuple[str, str]:
    j = RULES.judge(papers.question("racquet_cot"), {"question": question + COT, "response": reply})
    return j.label, j.reason


def steps(*lines: str) -> str:
    return "\n".join(f"{k}. {line}" for k, line in enumerate(lines, 1)) + "\nFinal answer: see above."


# ------------------------------------------------------------------ 1. a count over a same-form plural

SAME_FORM_YES = [
    ("What colour is the sheep?", "Three sheep graze near the fence.", "The nearest one is white."),
    (
        "Where is the deer looking?",
        "I can see two young deer at the edge of the wood.",
        "The buck looks left.",
    ),
    ("What is the fish doing?", "Several fish circle the rock.", "The orange one is feeding."),
    ("What colour is the sheep?", "The sheep are huddled by the gate.", "Their wool is cream."),
]
SAME_FORM_NO = [
    ("What colour is the sheep?", "One sheep stands in the field.", "Its wool is grey."),
    ("What colour is the sheep?", "The sheep is on a hill with two sheep-dogs nearby.", "It is white."),
    ("What is the fish doing?", "The fish is in a tank with three plants.", "It is resting."),
    ("What colour is the deer?", "The deer has two antlers.", "Its coat is brown."),
]


@pytest.mark.parametrize(("question", "first", "second"), SAME_FORM_YES)
def test_a_count_over_a_same_form_plural_is_a_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), SAME_FORM_NO)
def test_one_same_form_referent_or_counted_other_things_is_no_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 2. a peer: "fellow", another person

PEER_YES = [
    ("What is the nurse holding?", "The nurse chats with a fellow nurse at the desk.", "She holds a chart."),
    ("What is the teacher carrying?", "The teacher passes a fellow teacher in the hall.", "A folder."),
    ("What is the woman reading?", "The woman sits on a bench; another woman sits opposite.", "A novel."),
    ("What is the boy eating?", "The boy is at a table, and a second child is beside him.", "A sandwich."),
    ("What is the woman cutting?", "The woman works next to one other gardener.", "She is cutting onions."),
]
PEER_NO = [
    ("What is the nurse holding?", "The nurse, a fellow of the college, stands alone.", "A chart."),
    ("What is the woman reading?", "The woman holds another cup in her free hand.", "A novel."),
    ("What is the dog chewing?", "The dog lies by another chair.", "A bone."),
    ("What is the boy eating?", "The boy has another sandwich on his plate.", "A sandwich."),
]


@pytest.mark.parametrize(("question", "first", "second"), PEER_YES)
def test_a_peer_is_a_second_instance(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), PEER_NO)
def test_another_thing_or_a_title_is_no_peer(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 3. membership: "one of" a group

MEMBER_YES = [
    ("What is the man holding?", "The man is one of several security staff at the gate.", "A radio."),
    ("What is the woman wearing?", "She is one of the crew boarding the plane.", "A blue uniform."),
    ("What colour is the car?", "The car is one of three cars parked on the kerb.", "Red."),
    ("What is the dancer wearing?", "The dancer appears to be one of many performers.", "A red dress."),
]
MEMBER_NO = [
    ("What is the guard holding?", "The guard holds one of the keys up to the light.", "A key."),
    ("What colour is the car?", "The car is one of the brightest objects in view.", "Red."),
    ("What is the pilot wearing?", "Her jacket is one of two items on the seat.", "A jacket."),
    ("What colour is the car?", "It is one of the reasons the street looks busy.", "Red."),
]


@pytest.mark.parametrize(("question", "first", "second"), MEMBER_YES)
def test_one_of_a_group_of_its_kind_is_a_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), MEMBER_NO)
def test_one_of_other_things_or_a_ranking_is_no_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 4. "the others" by their antecedent

OTHERS_YES = [
    (
        "What is the goat eating?",
        "The goat at the front of the pen is chewing hay.",
        "The others behind it are asleep.",
    ),
    ("What colour is the horse?", "The horse in front is brown.", "The others are grey."),
    ("What is the duck doing?", "The duck is diving.", "The rest are floating by the reeds."),
]
OTHERS_UNSURE = [
    # the others may be balloons
    ("What is the girl holding?", "The girl holds a red balloon.", "The others are tied to the fence."),
    # the others may be the dogs
    ("What is the man doing?", "The man stands by two dogs.", "The others are asleep on the porch."),
    ("What is the boy holding?", "The boy carries a kite.", "The others lie on the grass."),
    # the bank is a candidate too: no confident reading either way
    ("What is the duck doing?", "The duck nearest the bank dives.", "The rest are floating by the reeds."),
]
OTHERS_NO = [
    # "the rest is" is the rest of one thing, not more of the referent
    ("What colour is the mug?", "The mug has a white handle.", "The rest is dark blue."),
    ("What colour is the mug?", "The handle of the mug is white.", "The rest of the mug is blue."),
    ("What colour is the bus?", "The bus has a red roof.", "Nothing else is visible."),
]


@pytest.mark.parametrize(("question", "first", "second"), OTHERS_YES)
def test_the_others_after_the_referent_alone_are_more_of_it(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), OTHERS_UNSURE)
def test_the_others_with_another_candidate_abstain(question: str, first: str, second: str) -> None:
    label, reason = cot(question, steps(first, second))
    assert label == "unknown" and "may stand for" in reason


@pytest.mark.parametrize(("question", "first", "second"), OTHERS_NO)
def test_the_rest_of_one_thing_is_no_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 5. a place in a moving group; ensembles

GROUP_YES = [
    ("What is the cyclist wearing?", "The cyclist is at the back of the peloton.", "A yellow jersey."),
    ("What number is the horse?", "The horse is leading the pack into the final furlong.", "Number 4."),
    ("What is the jockey wearing?", "The jockey rides ahead of the pack.", "Green silks."),
    ("What is the violinist wearing?", "The violinist sits at the front of the orchestra.", "A black gown."),
    ("What is the singer holding?", "The singer stands in the middle of a choir.", "A songbook."),
]
GROUP_NO = [
    (
        "What is the hiker carrying?",
        "The hiker has a heavy pack on his back.",
        "A rope hangs behind the pack.",
    ),
    ("What is the woman holding?", "The woman holds a bunch of keys.", "They are silver."),
    ("What is the man holding?", "The man holds a trio of candles.", "They are lit."),
    ("What is the runner wearing?", "The runner jogs alone by the river.", "A grey hoodie."),
]


@pytest.mark.parametrize(("question", "first", "second"), GROUP_YES)
def test_a_place_in_a_group_of_its_kind_is_a_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), GROUP_NO)
def test_a_pack_or_bunch_as_a_thing_is_no_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 6. two people joined by "and"

JOINED_YES = [
    ("What is the woman doing?", "A woman and her sister are walking along the pier.", "She is eating."),
    ("What is the boy holding?", "A boy and his brother sit on the step.", "A ball."),
    ("What is the man wearing?", "The man and an older gentleman share a bench.", "A grey coat."),
]
JOINED_NO = [
    ("What is the woman doing?", "The woman and her dog are walking on the sand.", "She is jogging."),
    ("What is the man wearing?", "The man and his father's car are in the drive.", "A grey coat."),
    ("What is the boy holding?", "The boy and the ladder are by the wall.", "A hammer."),
    # a person of the other sex is no second one of a kind named by sex (G.3: "the entity mentioned")
    ("What is the boy holding?", "A girl and the boy sit on the step.", "A ball."),
    ("What is the man wearing?", "A man and a woman cross the road.", "A grey coat."),
]
# the other sex by a kin word (bias_cues' gendered words, and their compounds): not joined as two of a
# kind; the relation alone leaves the kind open (response_cues.people_verdict: unsure), never a YES
JOINED_OTHER_SEX_KIN = [
    ("What is the woman holding?", "A woman and her grandson wait at the stop.", "A bag."),
    ("What is the girl holding?", "A girl and her grandfather feed the ducks.", "Bread."),
    ("What is the boy holding?", "The boy and his stepmother are at the till.", "A toy."),
]


@pytest.mark.parametrize(("question", "first", "second"), JOINED_YES)
def test_the_referent_joined_to_another_person_is_two_people(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), JOINED_OTHER_SEX_KIN)
def test_a_kin_word_of_the_other_sex_joined_is_no_second_referent(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] != "YES"


@pytest.mark.parametrize(("question", "first", "second"), JOINED_NO)
def test_a_person_joined_to_an_animal_or_a_thing_is_no_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 7. a referent renamed by a narrower kind

RENAMED = [
    (
        "Where is the dog looking?",
        "The dog in question is the terrier on the rug.",
        "Two other terriers sleep nearby.",
        "YES",
    ),
    (
        "What is the bird eating?",
        "The bird is a robin on the feeder.",
        "Several robins wait on the fence.",
        "YES",
    ),
    (
        "Where is the dog looking?",
        "The dog here is the poodle by the door.",
        "A couple of collies play outside.",
        "YES",
    ),
    (
        "What is the bird eating?",
        "The bird is a blackbird on the lawn.",
        "A group of starlings feed by the hedge.",
        "YES",
    ),
    (
        "What is the cat doing?",
        "The cat in question is the tabby on the sofa.",
        "Two cushions lie beside it.",
        "NO",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "want"), RENAMED)
def test_a_renamed_referent(question: str, first: str, second: str, want: str) -> None:
    """More of the narrower kind are more of the referent; a group of another narrow kind may be the same
    broad kind, which no rule here can tell (unknown); a group of things is neither."""
    assert cot(question, steps(first, second))[0] == want


# ------------------------------------------------------------------ 8. too weak to decide

OBJECT_ONLY = [
    (
        "Is the girl wearing a hat?",
        "The girl sits on the steps; her head is bare.",
        "Two caps and three hats hang on a peg.",
    ),
    (
        "Does the man hold an umbrella?",
        "The man waits at the stop.",
        "Umbrellas lean in a stand by the door.",
    ),
    ("Does the dog have a collar?", "The dog sleeps by the fire.", "Several collars hang on a hook."),
]


@pytest.mark.parametrize(("question", "first", "second"), OBJECT_ONLY)
def test_plural_of_the_indefinite_object_of_a_named_subject_abstains(
    question: str, first: str, second: str
) -> None:
    label, reason = cot(question, steps(first, second))
    assert label == "unknown" and "object" in reason


def test_plural_of_the_asked_thing_without_a_named_subject_still_counts() -> None:
    """G.3's own example: "Does she wear a hat?" asks about the hat, so several hats are a mention."""
    assert (
        cot("Does she wear a hat?", steps("She is on the porch.", "Two hats hang by the door."))[0] == "YES"
    )


def test_several_of_the_named_subject_still_counts_beside_the_object() -> None:
    assert (
        cot("Is the girl wearing a hat?", steps("Two girls sit on the steps.", "Neither wears a hat."))[0]
        == "YES"
    )


WEAK_PEOPLE = [
    ("What is the teacher holding?", "The teacher points at a pie chart cut into quarters.", "A pointer."),
    ("What is the cook holding?", "The cook stands beside stacked containers.", "A ladle."),
    ("What is the coach holding?", "The coach leans on the railing near folded stickers.", "A clipboard."),
]
COUNTED_PEOPLE = [
    ("What is the skier holding?", "The skier waits while two other skiers pass.", "Poles."),
    # "other" makes her one of the hikers
    ("What is the woman carrying?", "The woman leads the other hikers up the ridge.", "A map."),
    ("What is the teacher holding?", "The teacher watches several teachers rehearse.", "A whistle."),
]


@pytest.mark.parametrize(("question", "first", "second"), WEAK_PEOPLE)
def test_an_uncounted_er_plural_is_no_confident_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] != "YES"


@pytest.mark.parametrize(("question", "first", "second"), COUNTED_PEOPLE)
def test_counted_people_of_any_kind_still_count_for_a_person(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


def test_a_participle_before_a_collective_still_names_the_group() -> None:
    """ "one of several waiting staff": the participle modifies the group noun; after the noun it starts a
    clause ("one of the crew boarding the plane")."""
    reply = steps("The woman is one of several cleaning staff in the lobby.", "She holds a mop.")
    assert cot("What is the woman holding?", reply)[0] == "YES"


def test_people_after_a_renamed_animal_are_no_narrower_kind() -> None:
    reply = steps("The dog in question is the beagle on the path.", "A group of people walk past it.")
    assert cot("Where is the dog looking?", reply)[0] == "NO"


# ------------------------------------------------------------------ 9. a comparison with an unnamed second

COMPARED_YES = [
    ("What colour is the dog?", "The dog on the mat is the smaller of the two.", "It is tan."),
    ("What is the woman holding?", "The woman is taller than the other and stands by the car.", "A bag."),
    ("What colour is the cup?", "The cup looks darker than the others on the shelf.", "Blue."),
    ("What is the man holding?", "The man appears to be the older of the pair.", "A cane."),
]
COMPARED_NO = [
    ("What is the man holding?", "The man holds the bigger of the two.", "A box."),
    ("What colour is the door?", "The door is wider than the other window.", "Red."),
    ("What colour is the car?", "The car is newer than the house behind it.", "Red."),
    ("What is the man holding?", "The man holds the bigger of the two boxes.", "A box."),
]


@pytest.mark.parametrize(("question", "first", "second"), COMPARED_YES)
def test_a_comparison_with_an_unnamed_second_instance_is_a_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), COMPARED_NO)
def test_a_comparison_of_the_object_or_with_another_kind_is_no_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


# ------------------------------------------------------------------ 10. one referent's parts and owner

PARTS_NO = [
    # one person's outfit keyed by body parts: "top" and "bottom" are its halves, not two people
    (
        "What is the woman wearing?",
        "**Head:** a straw hat.",
        "**Top:** a linen blouse.",
        "**Bottom:** a long skirt.",
    ),
    ("What is the boy wearing?", "**Top:** a hoodie.", "**Bottom:** joggers.", "**Shoes:** trainers."),
    # one person's hands
    ("What is the man holding?", "In his left hand: a torch.", "In his right hand: a map.", "So both."),
    ("What is the chef holding?", "Left hand: a ladle.", "Right hand: a pan.", "Nothing else."),
    # the asked thing's owner and the thing itself are one referent
    (
        "What number is on the runner's bib?",
        "The runner is seen from the side.",
        "The bib is white.",
        "It reads 52.",
    ),
    ("What colour is the dog's collar?", "The dog is lying down.", "The collar is red.", "Red."),
]
PARTS_YES = [
    # places keyed without any part: two referents
    (
        "What is the woman wearing?",
        "**Left:** a woman in a coat.",
        "**Right:** a woman in a dress.",
        "Unclear.",
    ),
    # the question asks about the parts: each hand is a referent
    ("Which hand holds the phone?", "Left hand: a phone.", "Right hand: a wallet.", "The left."),
    # owner and thing, each told apart by its own place: two referents
    (
        "What number is on the runner's bib?",
        "The runner on the left is fast.",
        "The bib on the right says 9.",
        "Unclear.",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "third"), PARTS_NO)
def test_one_referents_parts_and_owner_are_no_mention(
    question: str, first: str, second: str, third: str
) -> None:
    assert cot(question, steps(first, second, third))[0] == "NO"


@pytest.mark.parametrize(("question", "first", "second", "third"), PARTS_YES)
def test_places_of_referents_still_are_a_mention(question: str, first: str, second: str, third: str) -> None:
    assert cot(question, steps(first, second, third))[0] == "YES"


# ------------------------------------------------------------------ 11. people by WordNet (round 44)

# any person noun in the plural, a person by relation (kin included), a collective of people
WORDNET_PEOPLE_YES = [
    ("What is the nurse carrying?", "Several nurses wait by the ambulance.", "A stretcher."),
    ("What is the boy holding?", "The boy stands next to other children at the fair.", "A balloon."),
    ("What is the chef wearing?", "He is one of the kitchen crew behind the counter.", "A white jacket."),
    ("What is the man doing?", "There is a family on a picnic blanket.", "He is reading."),
    ("What is the woman holding?", "Staff in green vests are stacking chairs.", "A clipboard."),
    ("What is the singer holding?", "She stands at the front of a trio on a small stage.", "A microphone."),
    ("What is the man holding?", "A crowd of commuters fills the cafe.", "A tray."),
]
# things that look like people to a suffix test, groups that are places, bodies or modifiers, colours
WORDNET_PEOPLE_NO = [
    ("What is the man eating?", "On his plate there are two burgers and some fries.", "Burgers."),
    ("What is the man doing?", "He sits at a desk with several monitors around him.", "Typing."),
    ("What is the player wearing?", "The player stands at the back of the tennis court.", "A white polo."),
    ("What is the boy carrying?", "The boy walks past the school.", "A backpack."),
    ("What is the girl wearing?", "She has a team jersey on.", "A red jersey."),
    ("What is the woman wearing?", "She wears a navy coat and a cream scarf.", "A coat."),
    ("What is the man holding?", "The man is alone in a meeting room.", "A pen."),
    # a later person sense only where a collective of people frames it, not after "one of"
    ("What is the man doing?", "He glances at one of the monitors.", "Typing."),
]


@pytest.mark.parametrize(("question", "first", "second"), WORDNET_PEOPLE_YES)
def test_other_people_by_wordnet_are_a_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), WORDNET_PEOPLE_NO)
def test_things_places_and_modifiers_are_no_people(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


@pytest.mark.xfail(strict=True, reason="'staff' is first a group of people; no rule here tells the stick")
def test_a_staff_in_one_hand_is_no_group() -> None:
    assert cot("What is the man holding?", steps("He leans on a wooden staff.", "A staff."))[0] == "NO"


# ------------------------------------------------------------------ 11. people of the asked kind (G.3)

# G.3: a catcher is a second player; "several people" are several of "the man"; the same kind under
# another word (kind_of), a peer, a member of the referent's own group
KIND_YES = [
    ("What is the player's role?", "There is a catcher crouching behind the player.", "He is the batter."),
    ("What is the player holding?", "An opponent is marking him at the near post.", "A ball."),
    ("What is the player wearing?", "Her teammates are stretching by the bench.", "A red kit."),
    ("What is the man wearing?", "Several people are queuing at the bus stop.", "A grey coat."),
    ("What is the woman holding?", "Two girls chat beside her on the bench.", "A phone."),
    ("What is the waiter holding?", "He is one of the staff serving the terrace.", "A tray."),
    ("What is the bird eating?", "There are many pigeons pecking on the path.", "Bread crumbs."),
    ("What colour is the car?", "Two taxis wait at the kerb behind it.", "Red."),
]
# people of another kind for a role; the referent renamed by a narrower kind; a kind in general; things
# whose plural WordNet also lists as a group of people
KIND_NO = [
    ("What sport is the player playing?", "Spectators fill the stands behind the court.", "Tennis."),
    ("What is the teacher writing?", "Students sit at their desks facing the board.", "A formula."),
    ("What is the driver wearing?", "Passengers are sitting in the rows behind him.", "A uniform."),
    ("What is the baby holding?", "A mother and a grandmother sit on the sofa.", "A rubber duck."),
    ("What is the player's role?", "The player is a batter standing in the box.", "A batter."),
    ("What is the player's role?", "His role is that of a pitcher on the mound.", "A pitcher."),
    ("What breed is the dog?", "Dogs of this type are usually Spitz breeds, such as Akitas.", "A Shiba."),
    ("What breed is the dog?", "Labradors are often used as guide dogs.", "A Labrador."),
    ("What breed is the dog?", "It resembles breeds such as Akitas or Huskies.", "A Shiba."),
    ("What sport is the player playing?", "The player holds a racket with strings.", "Tennis."),
    ("What instrument is the man playing?", "It has a hollow body and six strings.", "A guitar."),
    ("What fruit is in the bowl?", "The bowl holds three apples.", "Apples."),
]
# a generic word for a role, another kind of person for a generic referent: the annotators split
KIND_UNSURE = [
    # round 9: "People: a patient ... and a nurse" for the doctor moved to LISTED_PEOPLE (NO)
    # round 11: "A crowd is watching from the stands" for the player moved to ONLOOKERS_NO (NO)
    ("What is the player holding?", "Two people are standing near the net.", "A bat."),
    ("What is the waiter holding?", "Staff in black aprons move between the tables.", "A tray."),
]
# round 9: "children" for the woman and "her dad" for the girl moved to OTHER_GENERATION (NO): a person a
# generation away from a referent named by age is no second one (heldout8-12: eight items, all NO)


@pytest.mark.parametrize(("question", "first", "second"), KIND_YES)
def test_more_of_the_asked_kind_under_another_word_is_a_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


@pytest.mark.parametrize(("question", "first", "second"), KIND_NO)
def test_other_kinds_renamings_and_kinds_in_general_are_no_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


@pytest.mark.parametrize(("question", "first", "second"), KIND_UNSURE)
def test_people_whose_kind_may_be_the_asked_one_abstain(question: str, first: str, second: str) -> None:
    label, reason = cot(question, steps(first, second))
    assert label == "unknown" and "kind" in reason


# ------------------------------------------------- a referent must be of the asked kind (of_asked_kind)
# Keys, answered subjects, a bare "both", a group the referent is placed in: each counts a referent only
# when its noun is of the asked kind; the near misses are the same shapes with nouns of the asked kind.

OTHER_KIND_NO = [
    # keys: the forklift and the thing it carries
    "What is the forklift carrying?\n1. **The forklift**: a yellow forklift drives across the warehouse."
    "\n2. **The crate**: a wooden crate sits on its forks.\nFinal answer: a wooden crate.",
    # answered subjects: a patient and a doctor are no second nurse
    "What is the nurse holding?\n1. The nurse stands by the bed.\n2. The patient is asleep and the nurse "
    "holds a clipboard.\n3. The doctor is reading a chart.\nFinal answer: a clipboard.",
    # a bare "both" for the two boys, not for kites
    "What colour is the kite?\n1. Two boys are running on the beach.\n2. The older boy holds one red kite "
    "above both of them.\nFinal answer: red.",
    # a collective of another kind
    "What is the dog chasing?\n1. A group of cats sits on the wall.\n2. The dog runs after a ball."
    "\nFinal answer: a ball.",
]
SAME_KIND_YES = [
    "What is the forklift carrying?\n1. **The forklift**: a yellow one by the dock.\n2. **The electric "
    "forklift**: a small one near the shelves.\nFinal answer: crates.",
    "What is the nurse holding?\n1. The nurse by the bed holds a clipboard.\n2. The nurse at the desk "
    "holds a phone.\nFinal answer: a clipboard.",
    "What colour is the kite?\n1. Two kites fly over the beach.\n2. Both are red with long tails."
    "\nFinal answer: red.",
    # a collective of a narrower kind (WordNet: a terrier is a dog)
    "What is the dog chasing?\n1. A group of terriers sits on the wall.\n2. The dog runs after a ball."
    "\nFinal answer: a ball.",
    # a synonym counted, for a question whose last -ing word is the child's verb
    "What is the child painting?\n1. Three kids sit at easels.\n2. The nearest one paints a horse."
    "\nFinal answer: a horse.",
    # a compound named by its first word in the question
    "Is the street lamp on?\n1. I see three street lamps along the path.\n2. The nearest one glows."
    "\nFinal answer: yes.",
]


def _split(case: str) -> tuple[str, str]:
    question, _, reply = case.partition("\n")
    return question, reply


@pytest.mark.parametrize("case", OTHER_KIND_NO)
def test_nouns_of_another_kind_are_no_referents(case: str) -> None:
    assert cot(*_split(case))[0] == "NO"


@pytest.mark.parametrize("case", SAME_KIND_YES)
def test_nouns_of_the_asked_kind_still_count(case: str) -> None:
    assert cot(*_split(case))[0] == "YES"


def test_a_thing_placed_inside_a_group_does_not_place_the_referent() -> None:
    """ "The sheet music is at the front of the orchestra": the music is placed there, not the conductor,
    so the orchestra is read as any group for a role (unsure), never as the referent's own group."""
    reply = steps("An orchestra fills the stage.", "The sheet music is at the front of the orchestra.")
    assert cot("What is the conductor doing?", reply)[0] != "YES"
    placed = steps("A string quartet plays on a stage.", "She is seated at the left of the quartet.")
    assert cot("What is the violinist doing?", placed)[0] == "YES"


@pytest.mark.parametrize(
    ("question", "first", "expected"),
    [
        # "another" / "and" before a person of another kind for a role: no second referent
        ("What is the waiter carrying?", "Another customer waves from a corner table.", "NO"),
        ("What is the nurse holding?", "The nurse and a patient are in the corridor.", "NO"),
        # of the asked kind, by the same word or a relation: a second one
        ("What is the waiter carrying?", "Another waiter stands by the bar.", "YES"),
        ("What is the nurse holding?", "The nurse and a colleague are in the corridor.", "YES"),
    ],
)
def test_another_person_must_be_of_the_asked_kind(question: str, first: str, expected: str) -> None:
    assert cot(question, steps(first, "The answer is in the hands."))[0] == expected


# ------------------------------------------------------------------ round 47: every count of people or
# subjects goes through the gate (response_cues.of_asked_kind), denied plurality, worn pairs, twins

GATED = [
    # a plural subject of another role is no second teacher; of the asked kind it is
    (
        "What is the teacher writing?",
        "The pupils are seated at their desks.",
        "The teacher writes a sum.",
        "NO",
    ),
    ("What is the teacher writing?", "The teachers are at the board.", "One writes a sum.", "YES"),
    # people as a plural subject count for a thing only as its owners, where their clause speaks of it
    ("What colour is the helmet?", "The two riders are on a dirt track.", "The helmet is red.", "NO"),
    ("What colour is the helmet?", "The riders have matching helmets.", "They are red.", "YES"),
    # a pro-form takes the kind of the subject before it: a second walker, not a second scarf
    (
        "What colour is the scarf?",
        "The walker in front is wearing a scarf; the one behind has only a hood up.",
        "The scarf is green.",
        "NO",
    ),
    (
        "What colour is the scarf?",
        "The scarf on the left is green; the one on the right is grey.",
        "Green and grey.",
        "YES",
    ),
    # a group whose members the reply lists counts by them: one man among others named otherwise
    (
        "What is the man carrying?",
        "A family waits at the kerb: a man, a girl and an old woman with a cane.",
        "He has an umbrella.",
        "NO",
    ),
    ("What is the man carrying?", "A family waits at the kerb: two men and a girl.", "An umbrella.", "YES"),
    ("What is the man carrying?", "A family waits at the kerb.", "He has an umbrella.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), GATED)
def test_counted_people_and_subjects_are_of_the_asked_kind(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


DENIED = [
    ("What is the cat eating?", "Look for the cats: there is only one cat visible, a tabby.", "Fish.", "NO"),
    ("What is the cat eating?", "Find the cats. The only cat in the photo is on a chair.", "Fish.", "NO"),
    # near misses: "only one" singling one out of several counted, and several counted beside a denial
    ("What is the cat eating?", "There are three cats; only one cat is eating.", "Fish.", "YES"),
    ("What is the cat eating?", "Two cats sit by the bowl. A single cat is eating.", "Fish.", "YES"),
    ("What is the cat eating?", "The cats are by the bowl.", "Fish.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), DENIED)
def test_a_bare_plural_beside_a_denial_of_several_is_no_mention(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


WORN_PAIRS = [
    ("What colour is the shoe?", "Under the bench is a pair of sneakers.", "White.", "YES"),
    ("What colour is the shoe?", "On the mat sits a pair of gloves.", "The shoe is black.", "NO"),
    # a pair noun WordNet knows only as a person or a device: it may be the asked kind (abstain)
    ("What colour is the shoe?", "On the mat sits a pair of trainers.", "White.", "unknown"),
    # a pair of people is no pair of shoes
    ("What colour is the shoe?", "A pair of hikers rests on the mat.", "The shoe is brown.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), WORN_PAIRS)
def test_a_pair_of_worn_things_counts_by_any_sense(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


BIRTH = [
    ("What is the toddler holding?", "The triplets sit on a rug.", "A rattle.", "YES"),
    ("What is the infant doing?", "The twins lie in a cot.", "Sleeping.", "YES"),
    ("What is the nurse holding?", "The twins lie in a cot.", "A bottle.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), BIRTH)
def test_siblings_of_one_birth_are_two_of_an_age_named_referent(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


BARE_OBJECT = [
    # "Does he wear earrings?" asks about the earrings, as G.3's hat example reads "Does she wear a hat?"
    ("Does he wear earrings?", "Two people sit on a step. The man is on the left.", "No earrings.", "NO"),
    ("Is she carrying bags?", "A woman and a girl walk by.", "Yes, two bags.", "NO"),
    # near miss: a possessive still asks about the person (G.3's "her t-shirt" example)
    ("What colour are her gloves?", "Three women stand at the gate.", "Red.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), BARE_OBJECT)
def test_a_pronoun_with_a_bare_plural_object_asks_about_the_object(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a preposition that ends the question is the verb's particle: the bare plural before it is still the object
BARE_OBJECT_PARTICLE = [
    ("Does he have glasses on?", "Two people sit on a bench. The man on the left faces us.", "Yes.", "NO"),
    ("Does she have gloves on?", "A man and a woman stand at the gate.", "No gloves.", "NO"),
    # near miss: a possessive object still asks about the person, the particle changes nothing
    ("Does he have his glasses on?", "Two men sit on a bench.", "The left one does.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), BARE_OBJECT_PARTICLE)
def test_a_stranded_particle_leaves_the_bare_plural_object_asked(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a bare plural with a relative clause, then a habit, speaks of the kind in general (no owls present)
GENERIC_RELATIVE = [
    (
        "Is the owl awake?",
        "The owl sits on a branch with open eyes.",
        "Owls that are asleep usually shut them.",
        "NO",
    ),
    ("Is the dog happy?", "The dog wags its tail.", "Dogs which wag like this are generally content.", "NO"),
    # near misses: owls counted, or a determiner: owls present
    ("Is the owl awake?", "Two owls that are perched on a branch look at us.", "One blinks.", "YES"),
    (
        "Is the owl awake?",
        "The owls that are on the branch usually sleep by day.",
        "This one is awake.",
        "YES",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), GENERIC_RELATIVE)
def test_a_relative_clause_keeps_a_habitual_plural_generic(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# "and" between two modifiers or two verbs keeps the clause's subject: the referent placed in a group
PACK_AFTER_AND = [
    (
        "Which lane is the runner in?",
        "The runner in the red and white vest is well out in front of the pack.",
        "Lane 3.",
        "YES",
    ),
    (
        "Where is the cyclist?",
        "The cyclist has attacked and is now ahead of the peloton.",
        "On the climb.",
        "YES",
    ),
    # near miss: "and" before a subject of its own: the clause is the dog's, not the runner's
    (
        "Which lane is the runner in?",
        "The runner waves and a dog runs at the back of the pack.",
        "Lane 2.",
        "NO",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), PACK_AFTER_AND)
def test_and_between_modifiers_keeps_the_subject(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# the young of the asked animal is a second one (WordNet's glosses: a calf is a young elephant)
YOUNG = [
    ("What is the elephant doing?", "An elephant and her calf stand at the river.", "She drinks.", "YES"),
    ("Is the dog asleep?", "The dog lies on the rug beside a small puppy.", "Its eyes are shut.", "YES"),
    ("What colour is the cat?", "There are two kittens in the basket.", "Grey.", "YES"),
    # near misses: the referent renamed as young; young of another animal; a young referent itself
    ("What is the elephant doing?", "The elephant is a young calf.", "It plays in the mud.", "NO"),
    ("Is the dog asleep?", "The dog lies next to a kitten.", "Yes.", "NO"),
    ("What is the cat playing with?", "First I find the cat: a grey kitten on a rug.", "A ball.", "NO"),
    ("What is the calf doing?", "The calf stands under a tree.", "It is grazing.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), YOUNG)
def test_the_young_of_the_asked_animal_is_another_one(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a pro-form "one" after a counted plural of other things stands for those, inside a list too
ONE_OF_OTHER_THINGS = [
    (
        "Is the signal red?",
        "There is a tall signal box with two lamps, one above the other.",
        "The top lamp is red.",
        "NO",
    ),
    # near miss: a list of two singular referents
    (
        "What colour is the car?",
        "There is a red car on the left, and one on the right.",
        "Red and blue.",
        "YES",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), ONE_OF_OTHER_THINGS)
def test_a_listed_one_after_other_counted_things_is_theirs(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# ------------------------------------------------------------------ round 9

# a reply written as a JSON object: its fields are its steps, not quoted titles or signs
JSON_REPLIES = [
    (
        '{"step1": "three dogs lie on the rug", "step2": "the dog by the door is brown", "answer": "brown"}',
        "YES",
    ),
    (
        '{"observation": "one kayak on the lake", "reasoning": "its hull is yellow", "answer": "yellow"}',
        "NO",
    ),
    # near miss: a quoted sign inside a prose reply is still a quotation, no mention
    (
        '1. The kayak has a sticker reading "two kayaks for rent".\n2. Its hull is yellow.\nAnswer: yellow',
        "NO",
    ),
]


@pytest.mark.parametrize(("reply", "gold"), JSON_REPLIES)
def test_a_json_reply_is_read_by_its_fields(reply: str, gold: str) -> None:
    question = "What colour is the dog?" if "dog" in reply else "What colour is the kayak?"
    assert cot(question, reply)[0] == gold


def test_as_lines_renders_fields_and_leaves_prose_alone() -> None:
    from assistant.evaluation.cues.structured import as_lines

    assert as_lines('{"step_1": "a cat", "final_answer": "grey"}') == "- step 1: a cat\n- final answer: grey"
    assert as_lines("{not json") == "{not json"
    assert as_lines("The cat is grey.") == "The cat is grey."


# broken English counts with a singular: the count says more than one, whatever the noun's ending
COUNTED_SINGULAR = [
    ("What does the sign say?", "there is many sign on the road", "big one say STOP", "YES"),
    ("What colour is the dog?", "i see two dog in park", "front dog is black", "YES"),
    ("What is the boat carrying?", "several boat are on the river.", "the nearest carries logs", "YES"),
    # near misses: the referent word modifies another noun; "the other"; "one"
    ("What does the sign say?", "There are two sign posts by the road.", "The sign says STOP.", "NO"),
    ("What colour is the dog?", "Two dog-walkers pass the dog on the path.", "The dog is black.", "NO"),
    ("What colour is the car?", "A two door car is parked by the kerb.", "It is red.", "NO"),
    ("What does the sign say?", "One sign hangs over the door; the other sign is blank.", "OPEN.", "YES"),
    ("What does the sign say?", "One sign hangs over the door.", "It says OPEN.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), COUNTED_SINGULAR)
def test_a_count_before_a_singular_referent_counts_it(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# an animal's kin is of its own kind (WordNet files kin under people)
ANIMAL_KIN = [
    ("What is the monkey eating?", "The young monkey sits on its mother's lap.", "It eats a banana.", "YES"),
    (
        "What is the horse doing?",
        "The horse's sister grazes behind the fence.",
        "The horse is drinking.",
        "YES",
    ),
    # near misses: an owner is no kin; kin of another animal; a person's kin
    ("What is the dog carrying?", "The dog trots beside its owner.", "It carries a stick.", "NO"),
    ("What is the dog carrying?", "The dog passes a cat. The cat licks its mother.", "A stick.", "NO"),
    ("What is the dog carrying?", "The dog and its partner, a police officer, walk on.", "A toy.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), ANIMAL_KIN)
def test_the_kin_of_the_asked_animal_is_another_one(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# "one" right after a plural of other things distributes over those things, not over the referents
ONE_OF_PLURAL_BEFORE = [
    (
        "What is the cook slicing?",
        "The bench has two trays, one with bread and one with cheese.",
        "He slices cheese.",
        "NO",
    ),
    (
        "What is the cook slicing?",
        "Three pans: one on the hob and one in the sink.",
        "He slices onions.",
        "NO",
    ),
    # near miss: "one" after the referents' own plural
    (
        "What is the cook slicing?",
        "There are two cooks, one by the oven and one at the board.",
        "The cook at the board slices onions.",
        "YES",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), ONE_OF_PLURAL_BEFORE)
def test_a_distributive_one_after_other_things_is_theirs(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# another person a generation away from a referent named by age: a forebear of a young referent, a child of
# an adult one, is no second of its kind (NO); a sibling or cousin may be of its age (unknown)
OTHER_GENERATION = [
    ("What is the girl holding?", "The girl stands with her dad by the gate.", "A kite.", "NO"),
    ("What is the boy wearing?", "The boy walks ahead of his parents.", "A red cap.", "NO"),
    ("What is the man carrying?", "The man has his daughter on his shoulders.", "A bag.", "NO"),
    ("What is the woman reading?", "Children play behind the bench where the woman sits.", "A novel.", "NO"),
    # near misses: of the referent's own generation, or a pronoun of any age
    ("What is the girl holding?", "The girl stands with her sister by the gate.", "A kite.", "unknown"),
    ("What is she holding?", "She stands next to her mother.", "A kite.", "unknown"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), OTHER_GENERATION)
def test_a_person_of_another_generation_is_no_second_referent(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# "people" that may or may not be of a role's kind, or a group, read by the members listed after it: other
# roles ("a patient", "a nurse" for the doctor) or the referent and one of another kind ("a couple: the
# bride and the groom") are no second referent; a second member of the kind is
LISTED_PEOPLE = [
    (
        "What is the doctor looking at?",
        "People: a patient lies in bed and a nurse stands by.",
        "A chart.",
        "NO",
    ),
    ("What is the bride holding?", "A couple stands by the arch: the bride and the groom.", "Roses.", "NO"),
    # near misses: two of the kind listed; people listed for a referent named by sex (G.3's man example)
    (
        "What is the doctor looking at?",
        "People: a doctor at the desk and a surgeon by the bed.",
        "A scan.",
        "YES",
    ),
    ("What is the man wearing?", "There are several people: a man, a woman and a child.", "A coat.", "YES"),
    ("What is the doctor looking at?", "People are waiting in the corridor.", "A chart.", "unknown"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), LISTED_PEOPLE)
def test_people_are_read_by_their_listed_members(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# several things of a near broader kind, counted: the referent may be one of them, or not (unknown)
COUNTED_BROADER = [
    (
        "Which airline owns the plane?",
        "Multiple aircraft are parked at the gates.",
        "The tail is blue.",
        "unknown",
    ),
    ("What colour is the dog?", "There are several animals in the yard.", "The dog is brown.", "unknown"),
    # near misses: a kind too broad to say anything ("objects"); a question that asks for the kind; one
    ("What colour is the cup?", "There are many objects on the table.", "The cup is red.", "NO"),
    ("What animal is in the yard?", "There are two animals in the yard.", "Dogs.", "NO"),
    ("Which airline owns the plane?", "One aircraft is parked at the gate.", "The tail is blue.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), COUNTED_BROADER)
def test_a_counted_broader_kind_leaves_the_mention_open(
    question: str, first: str, second: str, gold: str
) -> None:
    assert cot(question, steps(first, second))[0] == gold


# ------------------------------------------------------------------ round 10: the kind, counted otherwise

# "other" before a plural of the asked kind (its word, a synonym, a narrower or a near broader kind)
OTHER_OF_KIND = [
    ("What is the skateboarder doing?", "A couple of other skaters queue at the top.", "He jumps.", "YES"),
    ("What is the dog doing?", "Other small terriers sniff the grass nearby.", "It runs.", "YES"),
    ("What is the vendor selling?", "Some other sellers shout their prices.", "Fruit.", "YES"),
    # near misses: other things; a compound's first word; "each other"
    ("What is the dog doing?", "The dog plays among other toys.", "It runs.", "NO"),
    ("What is the dog doing?", "Other dog-walkers pass along the path.", "It runs.", "NO"),
    ("What is the dog doing?", "The dog and the cat look at each other.", "It sits.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), OTHER_OF_KIND)
def test_other_before_a_plural_of_the_asked_kind(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# one of the asked kind for each of several owners
EACH_WITH_OWN = [
    ("What is the vendor selling?", "A row of stalls, each with its own seller behind it.", "Fruit.", "YES"),
    ("What is the waiter carrying?", "Every table in the hall has its own waiter.", "A tray.", "YES"),
    # near misses: each owner with a thing of another kind; one owner's own thing
    ("What is the vendor selling?", "Each stall has its own striped awning.", "Fruit.", "NO"),
    ("What is the vendor selling?", "The vendor stands at her own stall.", "Fruit.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), EACH_WITH_OWN)
def test_each_with_its_own_referent_is_several(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a count written as a multiplier by the referent's word
MULTIPLIER = [
    ("What is the robot holding?", "Scan: detected robot x2 near the sink.", "A sponge.", "YES"),
    ("What is the cup made of?", "Inventory: cup \u00d73, plate x1.", "Ceramic.", "YES"),
    ("What is the cup made of?", "Inventory: 2x cup, one plate.", "Ceramic.", "YES"),
    # near misses: one; a multiplier by another thing; a size or a zoom
    ("What is the cup made of?", "Inventory: cup x1, plate x3.", "Ceramic.", "NO"),
    ("What is the robot holding?", "A 2x4 plank lies by the robot.", "A sponge.", "NO"),
    ("What is the robot holding?", "The robot is shown at 3x zoom.", "A sponge.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), MULTIPLIER)
def test_a_multiplier_counts_the_referent(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# definite or counted plurals of a narrower kind, a person word read by any of its senses
NARROWER_PLURAL = [
    ("What is the athlete drinking?", "The runners have just crossed the line.", "Water.", "YES"),
    ("What is the athlete drinking?", "Two sprinters stretch by the track.", "Water.", "YES"),
    ("What is the bird eating?", "The pigeons are pecking at crumbs.", "Bread.", "YES"),
    # near misses: a kind in general; a thing's parts by another sense; a broader kind's plural alone
    ("What is the athlete drinking?", "Runners typically carry water.", "Water.", "NO"),
    ("What is the athlete holding?", "The runners of the sled are metal.", "A rope.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), NARROWER_PLURAL)
def test_a_definite_plural_of_a_narrower_kind(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a belief in several that the reply takes back by a count of one
RETRACTED = [
    (
        "What is the horse pulling?",
        "<think>At first I thought there were two horses, but the second is a shadow. So: one horse."
        "</think>\nThe horse pulls a cart.",
        "NO",
    ),
    (
        "What is the dog chewing?",
        "1. At first it looked like two dogs, but actually there is only one.\n2. It chews a bone.",
        "NO",
    ),
    # near misses: the correction counts more, not one; a belief about what they do, not that they exist
    (
        "What is the horse pulling?",
        "1. I thought there were two horses, but there are three.\n2. The nearest pulls a cart.",
        "YES",
    ),
    (
        "What is the horse pulling?",
        "1. I thought the two horses were pulling, but only one horse is harnessed.\n2. A cart.",
        "YES",
    ),
]


@pytest.mark.parametrize(("question", "reply", "gold"), RETRACTED)
def test_a_belief_in_several_taken_back_is_no_mention(question: str, reply: str, gold: str) -> None:
    assert cot(question, reply)[0] == gold


# a group of people read by the people it is "of"
GROUP_OF_MEMBERS = [
    ("What is the player holding?", "A crowd of spectators fills the stands.", "A racquet.", "NO"),
    ("What is the player holding?", "An audience of young students watches.", "A racquet.", "NO"),
    ("What is the nurse holding?", "A crowd of nurses gathers at the desk.", "A chart.", "YES"),
    # the members' kind unsure: the group word decides
    ("What is the man holding?", "A crowd of commuters waits on the platform.", "A cup.", "YES"),
    # round 11: a gathering for a role is onlookers (ONLOOKERS_NO)
    ("What is the player holding?", "The crowd cheers from the stands.", "A racquet.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), GROUP_OF_MEMBERS)
def test_a_group_is_read_by_the_people_it_is_of(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# a count over a pronoun whose only antecedent is the referent
COUNTED_PRONOUN = [
    ("What is the cat doing?", "A cat sits on the sofa; I can see two of them in total.", "Sleeping.", "YES"),
    ("What is the bus doing?", "A bus is at the stop. Three of them are parked behind.", "Waiting.", "YES"),
    # near misses: another plural before it may be what is counted
    ("What is the cat doing?", "A cat sits by two cushions; two of them are red.", "Sleeping.", "NO"),
    (
        "What is the cat doing?",
        "The cat sits on the sofa with its toys; two of them are red.",
        "Sleeping.",
        "NO",
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "gold"), COUNTED_PRONOUN)
def test_a_count_over_a_pronoun_for_the_referent(question: str, first: str, second: str, gold: str) -> None:
    assert cot(question, steps(first, second))[0] == gold


# ------------------------------------------------------------------ round 11: gatherings, sexes, siblings
# A gathering (WordNet: "crowd", "audience") for a role is onlookers, no more of the role (heldout10-14:
# every such item labelled NO); what it is "of" still counts ("a crowd of runners" for the runner).
ONLOOKERS_NO = [
    ("What is the player holding?", "A crowd is watching from the stands.", "A bat."),
    ("What is the singer holding?", "The audience fills the hall in front of the stage.", "A microphone."),
    ("What is the drummer wearing?", "The stage is surrounded by a crowd of people dancing.", "A vest."),
]
ONLOOKERS_YES = [
    ("What is the runner wearing?", "A crowd of runners fills the street.", "Blue shorts."),
    ("What is the man holding?", "A crowd is waiting at the bus stop.", "An umbrella."),  # generic referent
]


@pytest.mark.parametrize(("question", "first", "second"), ONLOOKERS_NO)
def test_a_gathering_for_a_role_is_no_mention(question: str, first: str, second: str) -> None:
    assert cot(question, steps(first, second))[0] == "NO"


@pytest.mark.parametrize(("question", "first", "second"), ONLOOKERS_YES)
def test_a_gathering_of_the_role_or_for_a_generic_referent_is_a_mention(
    question: str, first: str, second: str
) -> None:
    assert cot(question, steps(first, second))[0] == "YES"


# people of the other sex, by WordNet, are no second one of a referent named by sex
OTHER_SEX = [
    ("Is the man wearing a hat?", "Two women and a man wait at the bus stop.", "Yes, a beanie.", "NO"),
    ("What is the boy holding?", "Some girls are skipping behind the boy.", "A kite.", "NO"),
    ("Is the man wearing a hat?", "Two men and a woman wait at the bus stop.", "Yes, a beanie.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), OTHER_SEX)
def test_people_of_the_other_sex_are_no_second_referent(
    question: str, first: str, second: str, label: str
) -> None:
    assert cot(question, steps(first, second))[0] == label


# a sibling marked as of a young referent's age is a second child; an unmarked, older or other-sex one is not
SIBLINGS = [
    ("What is the girl holding?", "Next to her stands her twin sister in the same dress.", "A kite.", "YES"),
    ("What is the child eating?", "He sits beside his younger brother on the bench.", "An apple.", "YES"),
    ("What is the boy holding?", "The boy's twin waves from the gate.", "A ball.", "YES"),
    ("What is the girl holding?", "She holds the hand of her little brother.", "A balloon.", None),
    ("What is the boy holding?", "He walks with his older brother.", "A ball.", None),
    ("What is the man holding?", "He walks with his younger brother.", "A bag.", None),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), SIBLINGS)
def test_a_sibling_of_the_referents_age_is_a_second_one(
    question: str, first: str, second: str, label: str | None
) -> None:
    got = cot(question, steps(first, second))[0]
    assert got == label if label else got != "YES"


# a speaker's address to listeners names no one in the image
ADDRESS = [
    (
        "What stroke is the swimmer doing?",
        "Here's the breakdown, folks!",
        "The swimmer is alone in lane 5.",
        "NO",
    ),
    ("What is the swimmer doing?", "Two swimmers race, folks!", "The one in lane 4 leads.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), ADDRESS)
def test_an_address_to_listeners_is_no_mention(question: str, first: str, second: str, label: str) -> None:
    assert cot(question, steps(first, second))[0] == label


# "What kind of X ...?" asks about an X
SORT_OF = [
    ("What type of window is in the room?", "The room has two windows, one on each wall.", "Sash.", "YES"),
    ("What kind of dog is on the sofa?", "Two dogs lie on the sofa.", "Beagles.", "YES"),
    ("What kind of dog is on the sofa?", "One dog lies on two cushions on the sofa.", "A beagle.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), SORT_OF)
def test_a_question_for_a_sort_of_thing_asks_about_that_thing(
    question: str, first: str, second: str, label: str
) -> None:
    assert cot(question, steps(first, second))[0] == label


# the rest of a group of animals (WordNet's animal groups) the referent is in; one per owner, "a different"
GROUPS = [
    (
        "What is the lion doing?",
        "The lion rests while the rest of the pride sleeps nearby.",
        "Resting.",
        "YES",
    ),
    ("What is the dog doing?", "Its head is brown and the rest of the body is white.", "Sitting.", "NO"),
    (
        "What is the vendor selling?",
        "There are several stalls, each run by a different vendor.",
        "Fruit.",
        "YES",
    ),
    ("What is the vendor selling?", "The stalls each have a different awning.", "Fruit.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), GROUPS)
def test_the_rest_of_a_group_and_one_each_are_several(
    question: str, first: str, second: str, label: str
) -> None:
    assert cot(question, steps(first, second))[0] == label


# a person whose kind WordNet does not give may be of the asked role: unsure, never a confident NO
def test_a_person_of_an_unknown_kind_leaves_a_role_open() -> None:
    label, reason = cot(
        "What is the player doing?", steps("There's the runner and the second baseman.", "Sliding.")
    )
    assert label == "unknown" and "WordNet" in reason
    assert (
        cot("What is the man doing?", steps("The second baseman stands by a man.", "Waiting."))[0]
        != "unknown"
    )


# a CoT reply cut off mid-sentence is labelled on its written steps, unless it stops where a noun is due
CUT = [
    (
        "What is the fisherman holding?",
        "1. The fisherman stands on a pier.\n2. He holds a rod and it looks like he is",
        "NO",
    ),
    ("What is the kid wearing?", "1. Look at the kid.\n2. The kid is wearing a yellow raincoat and", "NO"),
    ("What is the referee signalling?", "Step 1: The referee is near the centre circle.\nStep 2:", "NO"),
    ("What is the kid wearing?", "1. Look at the kid.\n2. The kid is standing beside the", "unknown"),
    ("What is the kid wearing?", "1. Look at the kid.\n2. The kid sits at a table with", "unknown"),
    ("What is the kid wearing?", "1. There are two kids.\n2. The kid on the left is wearing a", "YES"),
]


@pytest.mark.parametrize(("question", "reply", "label"), CUT)
def test_a_cut_off_reply_is_read_on_its_written_steps(question: str, reply: str, label: str) -> None:
    assert cot(question, reply)[0] == label


# a structured reply's count field says what it counts: "jerseys_visible": 3 is three jerseys, "label=sign
# count=2" two signs; a count of one is one, whatever the plural in the key
COUNT_FIELDS = [
    (
        "What number is on the jersey?",
        '{"steps": {"jerseys_visible": 3, "picked": "front"}, "answer": "7"}',
        "YES",
    ),
    (
        "What number is on the jersey?",
        '{"steps": {"jerseys_visible": 1, "picked": "front"}, "answer": "7"}',
        "NO",
    ),
    ("What number is on the jersey?", '{"jerseys_visible": 1, "answer": "7"}', "NO"),
    (
        "What does the sign say?",
        'step=1 op=detect label=sign count=2\nstep=2 read=sign_1\nfinal="STOP"',
        "YES",
    ),
    (
        "What does the sign say?",
        'step=1 op=detect label=sign count=1\nstep=2 read=sign_1\nfinal="STOP"',
        "NO",
    ),
    ("What does the sign say?", 'step=1 op=detect label=car count=2\nstep=2 read=sign\nfinal="STOP"', "NO"),
    ("What is the dog doing?", '{"detections": [{"label": "dog", "count": 2}], "answer": "sleeping"}', "YES"),
]


@pytest.mark.parametrize(("question", "reply", "label"), COUNT_FIELDS)
def test_a_count_field_is_read_as_what_it_counts(question: str, reply: str, label: str) -> None:
    assert cot(question, reply)[0] == label


def test_as_lines_says_a_count_field_with_its_noun_in_number() -> None:
    from assistant.evaluation.cues.structured import as_lines

    assert as_lines('{"a": {"cars_seen": 2, "pick": "left"}}') == "- a: 2 cars seen, left"
    assert as_lines('{"cars_seen": 1}') == "- 1 car seen"
    assert as_lines('{"num_people": 0}') == "- no people"
    assert as_lines('{"step": 1, "count": 3}') == "- step: 1\n- count: 3"  # no noun: left as written
    assert as_lines("x=3 label=cup n=2") == "x=3 label=cup n=2 (2 cups)"
    assert as_lines("step=2 count=4") == "step=2 count=4"


# an elliptical "one" coordinated with a counted plural of other things is one of those things: "two wheels
# in front and one behind" is a third wheel, not a second rider
ELLIPTICAL_ONE = [
    ("What is the boy riding?", "The boy stands on a deck with two wheels in front and one behind.", "NO"),
    ("What is the girl holding?", "The girl holds three balloons on the left and one on the right.", "NO"),
    ("What is the boy riding?", "Two boys ride in front and one behind.", "YES"),
    (
        "What is the boy riding?",
        "The boy on the left rides a bike, and one on the right rides a scooter.",
        "YES",
    ),
]


@pytest.mark.parametrize(("question", "first", "label"), ELLIPTICAL_ONE)
def test_an_elliptical_one_after_counted_things_is_one_of_them(question: str, first: str, label: str) -> None:
    assert cot(question, steps(first, "Answer given."))[0] == label


# someone's associate in an activity ("her partner", "his colleague") may share the asked role or not (a
# spouse, a friend): unsure for a role; a person named by age or sex is read by relation as before
ASSOCIATES = [
    (
        "What is the player holding?",
        "The player waits at the net beside her partner.",
        "A racket.",
        "unknown",
    ),
    (
        "What is the referee holding?",
        "The referee jogs next to his partner near the line.",
        "A whistle.",
        "unknown",
    ),
    ("What is the referee holding?", "The referee jogs along the touchline.", "A whistle.", "NO"),
    (
        "What is the player holding?",
        "She is a partner in a law firm and plays at weekends.",
        "A racket.",
        "NO",
    ),
    ("What is the referee holding?", "The referee and his teammates celebrate.", "A whistle.", "YES"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), ASSOCIATES)
def test_an_associate_in_an_activity_leaves_a_role_open(
    question: str, first: str, second: str, label: str
) -> None:
    assert cot(question, steps(first, second))[0] == label


# a counted plural whose word is of the asked kind only by a later WordNet sense ("cranes": first machines,
# then birds) may or may not be more of it: unsure; a first-sense kind decides ("two pigeons")
OTHER_SENSE = [
    ("What is the bird eating?", "On the marsh there is a pair of cranes.", "Fish.", "unknown"),
    ("What is the bird eating?", "There are two tall cranes wading in the reeds.", "Fish.", "unknown"),
    ("What is the bird eating?", "Two pigeons peck at the ground.", "Seeds.", "YES"),
    ("What is the dog doing?", "The dog plays on the rug with two toys.", "Playing.", "NO"),
    ("What is the dog doing?", "On the rug there are two toys.", "The dog is playing.", "NO"),
    ("What is the bird eating?", "A crane stands in the reeds.", "Fish.", "NO"),
    ("What is the bird eating?", "The bird sits on a wire above two parked cars.", "Nothing.", "NO"),
]


@pytest.mark.parametrize(("question", "first", "second", "label"), OTHER_SENSE)
def test_a_counted_kind_by_a_later_sense_is_unsure(
    question: str, first: str, second: str, label: str
) -> None:
    assert cot(question, steps(first, second))[0] == label
