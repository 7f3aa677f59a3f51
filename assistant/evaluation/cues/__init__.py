"""Surface cues in a question and a response, for the rule judge (no model, deterministic).

The cues are split by what they are about; `assistant.evaluation.response_cues` re-exports them under
one name for the judges:

- text: normalisation, words, the word lists the judge reads with, plural and singular forms;
- question: a question's referent words (`QuestionCues`, `question_cues`);
- people: people and kinds: `names_person`, `is_person`, `people_verdict`, the gate `of_asked_kind`;
- counting: counted sets, presentational sentences, plurals of other things before a mention;
- places: places attached to mentions, place-led clauses, places that exclude each other;
- keys: keyed list items and sentences (by place, by person, by referent, in brackets), list lines;
- several: `several_answered` and its parts (quantified, one ... the other, singular lists, plural and
  answered subjects);
- mentions: several referents in other ways (plural mentions, quantifiers, ordinals, numbers, answers
  under several assumptions) and `several_referents`, the cue set the rules share;
- collectives: several of the asked kind in other words (`same_kind_mention`);
- descriptions: identifying descriptions, `named_by_role`, `plural_then_one`;
- clarify: clarification questions and acknowledged ambiguity;
- final: the final answer of a chain-of-thought reply.

Its words come from the English module the question analyser uses: word lists in assistant.lexicon,
plural and singular forms by inflection in assistant.words (inflect), so a noun is plural here exactly when
it is plural to the question analyser. Only the phrases that start a description (descriptions) and the
regular expressions of asking and acknowledging (clarify) live in this package.
"""
