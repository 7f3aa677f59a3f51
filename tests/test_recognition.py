"""One-pass recognition: P(ambiguous) from the first reply token (transformers), from a server's
top_logprobs (OpenAI-compatible), or from a short reply where a server gives no logprobs."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from assistant.grounding import Grounder
from assistant.pipeline import ONE_PASS_RECOGNITION, Assistant, AssistantConfig
from assistant.types import Verdict
from models.base import AnswerProbabilities, ChatMessage, GenerationSettings, read_answer
from models.blob_pointer import BlobPointer
from tests.chat_server import JSONHandler, serve

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _photo() -> Image.Image:
    rng = np.random.default_rng(5)
    return Image.fromarray(rng.integers(0, 255, (96, 128, 3), dtype=np.uint8))


@pytest.fixture(scope="module")
def smol(tmp_path_factory: pytest.TempPathFactory):
    from models.registry import create_vlm

    return create_vlm("smolvlm-tiny", target_dir=tmp_path_factory.mktemp("smol") / "smolvlm", device="cpu")


# ---------------------------------------------------------------- reading a short reply


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes.", {"Yes": 1.0, "No": 0.0}),
        ("no, it is not", {"Yes": 0.0, "No": 1.0}),
        ("NO... well, yes", {"Yes": 0.0, "No": 1.0}),
        ("Maybe", {}),
        ("", {}),
        ("Yesterday", {}),  # a word that starts with "Yes" is not "Yes"
    ],
)
def test_a_short_reply_is_read_as_one_of_the_answers(text: str, expected: dict[str, float]) -> None:
    result = read_answer(text, ("Yes", "No"))
    assert result.probabilities == expected and result.source == "generated"


def test_mass_is_renormalised_and_coverage_kept() -> None:
    result = AnswerProbabilities.from_mass({"Yes": 0.3, "No": 0.1}, "logits")
    assert result.probabilities == pytest.approx({"Yes": 0.75, "No": 0.25})
    assert result.covered == pytest.approx(0.4)
    assert AnswerProbabilities.from_mass({"Yes": 0.0, "No": 0.0}, "logits").probabilities == {}


# ---------------------------------------------------------------- transformers: one forward pass


@pytest.mark.parametrize("which", ["smol", "tiny"])
def test_the_distribution_read_is_the_one_generate_takes_its_first_token_from(which, smol, tiny_vlm) -> None:
    vlm = smol if which == "smol" else tiny_vlm
    conversation = [ChatMessage("user", "Is this question ambiguous? Answer Yes or No.", [_photo()])]
    probabilities = vlm.next_token_probabilities(conversation)
    assert float(probabilities.sum()) == pytest.approx(1.0, abs=1e-4)
    first = vlm._model.generate(  # greedy, one token, the adapter's own inputs
        **vlm._inputs([conversation]), max_new_tokens=1, do_sample=False
    )[0, -1]
    assert int(probabilities.argmax()) == int(first)


def test_answer_probabilities_sum_the_tokens_that_start_each_answer(smol) -> None:
    conversation = [ChatMessage("user", "Is it ambiguous?", [_photo()])]
    probabilities = smol.next_token_probabilities(conversation)
    result = smol.answer_probabilities(conversation, ("Yes", "No"))
    yes_ids, no_ids = smol._first_tokens("Yes"), smol._first_tokens("No")
    # A token that starts both (a bare space, in a tiny vocabulary) says neither: it is left out.
    yes = sum(float(probabilities[t]) for t in yes_ids - no_ids)
    no = sum(float(probabilities[t]) for t in no_ids - yes_ids)
    assert yes_ids - no_ids and no_ids - yes_ids
    assert result.source == "logits"
    assert result.probabilities["Yes"] == pytest.approx(yes / (yes + no), rel=1e-4)
    assert result.covered == pytest.approx(yes + no, rel=1e-4)


def test_the_verdict_is_the_probability_against_the_threshold(smol) -> None:
    photo = _photo()
    probabilities = set()
    for threshold, verdict in ((0.0, Verdict.AMBIGUOUS), (1.0, None)):
        assistant = Assistant(smol, Grounder(BlobPointer()), AssistantConfig(ambiguity_threshold=threshold))
        reply, _ = assistant.ask(photo, "What colour is the cup?")
        probability = reply.ambiguity_probability
        assert probability is not None
        probabilities.add(round(probability, 6))
        expected = verdict or (Verdict.AMBIGUOUS if probability >= 1.0 else Verdict.UNAMBIGUOUS)
        assert reply.verdict is expected
        assert reply.model_calls["vlm"] >= 1 and reply.timings["recognition"] > 0
        assert reply.to_dict()["ambiguity_probability"] == round(probability, 4)
    assert len(probabilities) == 1  # the same photo and question: the same probability


def test_a_generated_prompt_still_works_and_gives_no_probability(tiny_vlm) -> None:
    config = AssistantConfig(
        recognition_prompt="focus_recognition_zs", recognition_settings=GenerationSettings(max_new_tokens=8)
    )
    reply, _ = Assistant(tiny_vlm, Grounder(BlobPointer()), config).ask(_photo(), "Which cup is it?")
    assert reply.ambiguity_probability is None and reply.verdict_raw


def test_a_threshold_outside_zero_to_one_is_refused() -> None:
    from assistant.errors import ConfigError

    with pytest.raises(ConfigError, match="ambiguity_threshold"):
        AssistantConfig(ambiguity_threshold=1.5)
    assert AssistantConfig().recognition_prompt == ONE_PASS_RECOGNITION


# ---------------------------------------------------------------- an OpenAI-compatible server


def _server(top: list[dict[str, Any]] | None, content: str, seen: list[dict[str, Any]]) -> type:
    class Handler(JSONHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            choice: dict[str, Any] = {
                "index": 0,
                "finish_reason": "length",
                "message": {"role": "assistant", "content": content},
            }
            if top is not None and body.get("logprobs"):
                first = top[0]
                choice["logprobs"] = {"content": [{**first, "bytes": None, "top_logprobs": top}]}
            self._send(
                200,
                {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]},
            )

    return Handler


def test_a_server_with_logprobs_gives_the_probability_in_one_request() -> None:
    from models.openai_vlm import OpenAICompatibleVLM

    top = [
        {"token": "Yes", "logprob": math.log(0.5)},
        {"token": " yes", "logprob": math.log(0.1)},
        {"token": "No", "logprob": math.log(0.2)},
        {"token": "Maybe", "logprob": math.log(0.15)},
    ]
    seen: list[dict[str, Any]] = []
    with serve(_server(top, "Yes", seen)) as url:
        vlm = OpenAICompatibleVLM("served", base_url=url, api_key="k", timeout=10, max_retries=0)
        result = vlm.answer_probabilities([ChatMessage("user", "Ambiguous?", [_photo()])], ("Yes", "No"))
    assert len(seen) == 1 and seen[0]["logprobs"] is True and seen[0]["top_logprobs"] == 20
    assert seen[0]["max_tokens"] <= 4
    assert result.source == "logprobs"
    assert result.probabilities["Yes"] == pytest.approx(0.6 / 0.8)
    assert result.covered == pytest.approx(0.8)


@pytest.mark.parametrize(("content", "verdict"), [("No.", Verdict.UNAMBIGUOUS), ("Hmm", Verdict.UNDECIDED)])
def test_a_server_without_logprobs_is_read_from_its_short_reply(content, verdict) -> None:
    from models.openai_vlm import OpenAICompatibleVLM

    seen: list[dict[str, Any]] = []
    with serve(_server(None, content, seen)) as url:
        vlm = OpenAICompatibleVLM("served", base_url=url, api_key="k", timeout=10, max_retries=0)
        assistant = Assistant(vlm, Grounder(BlobPointer()), AssistantConfig())
        reply, _ = assistant.ask(_photo(), "What colour is the cup?")
    assert reply.verdict is verdict
    assert reply.ambiguity_probability == (0.0 if verdict is Verdict.UNAMBIGUOUS else None)
    assert seen[0]["logprobs"] is True  # asked once, with logprobs; no second request for the verdict
    recognition = [b for b in seen if "Yes or No" in json.dumps(b)]
    assert len(recognition) == 1


def test_the_prompt_file_is_the_zero_shot_definitions_and_a_yes_no_question() -> None:
    text = (Path(__file__).resolve().parents[1] / "prompts" / "focus_recognition_yesno.txt").read_text()
    zs = (Path(__file__).resolve().parents[1] / "prompts" / "focus_recognition_zs.txt").read_text()
    assert zs.split("\n\n")[1] in text and zs.split("\n\n")[2] in text  # the two definition paragraphs
    assert text.rstrip().endswith("Answer with one word, Yes or No.") and "$question" in text
