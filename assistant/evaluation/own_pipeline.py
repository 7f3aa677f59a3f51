"""whichone's own pipeline as the benchmark runs it: the assistant a pipeline task asks, and the focus
phrase a localising task points at (both as the app's pipeline makes them)."""

from __future__ import annotations

from dataclasses import replace

from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig, grounding_phrase
from assistant.question import analyse_question
from models.base import Pointer, VisionLanguageModel


def make_assistant(
    vlm: VisionLanguageModel, pointer: Pointer, max_new_tokens: int | None = None
) -> Assistant:
    """whichone's own pipeline around `vlm` and `pointer` (both already cached), without a segmenter
    (AQuA's saliency is scored on boxes, so masks would not change its strategy). `max_new_tokens`
    overrides the pipeline's reply lengths (recognition and answers) as --max-new-tokens does a task's."""
    config = AssistantConfig(choices_ahead=0)  # nobody reads the replies: no choice is encoded ahead
    if max_new_tokens is not None:
        config = replace(
            config,
            answer_settings=replace(config.answer_settings, max_new_tokens=max_new_tokens),
            recognition_settings=replace(config.recognition_settings, max_new_tokens=max_new_tokens),
        )
    return Assistant(vlm, Grounder(pointer, None), config)


def focus_phrase(question: str) -> str:
    """What whichone points at for a question ("red cup"), as its pipeline does."""

    return grounding_phrase(analyse_question(question))
