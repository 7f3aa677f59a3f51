"""Public demo mode (a Space, or WHICHONE_PUBLIC=1): only the allowed models, published datasets only."""

from __future__ import annotations

import pytest

from assistant.errors import WhichoneError
from ui.engine import ModelChoice, ModelPool
from ui.public import allowed_models, check_bench_request, check_models_allowed, public_mode
from ui.settings_tab import SettingsHandlers
from ui.state import UIState


@pytest.fixture
def public(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WHICHONE_PUBLIC", "1")
    monkeypatch.setenv("WHICHONE_STACK", "demo")  # tiny / blobs / no segmenter
    monkeypatch.setenv("WHICHONE_MODEL", "tiny")
    monkeypatch.setenv("WHICHONE_POINTER", "blobs")
    monkeypatch.delenv("WHICHONE_SEGMENTER", raising=False)
    monkeypatch.delenv("WHICHONE_ALLOWED_MODELS", raising=False)
    monkeypatch.delenv("WHICHONE_PUBLIC_BENCH_LIMIT", raising=False)


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, False), ({"SPACE_ID": "user/whichone"}, True), ({"WHICHONE_PUBLIC": "1"}, True),
     ({"SPACE_ID": "user/whichone", "WHICHONE_PUBLIC": "0"}, False)],
)  # fmt: skip
def test_public_mode_is_on_on_a_space_and_by_flag(monkeypatch, env: dict[str, str], expected: bool) -> None:
    monkeypatch.delenv("SPACE_ID", raising=False)
    monkeypatch.delenv("WHICHONE_PUBLIC", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert public_mode() is expected
    assert (allowed_models() is None) is not expected


def test_allowed_models_default_to_the_start_up_choice(public, monkeypatch) -> None:
    assert allowed_models() == {"tiny", "blobs", "none"}
    check_models_allowed("tiny", "blobs", None)
    with pytest.raises(WhichoneError, match=r"serves only blobs, tiny; qwen2.5-vl-7b is not available"):
        check_models_allowed("qwen2.5-vl-7b", "blobs")
    monkeypatch.setenv("WHICHONE_ALLOWED_MODELS", "tiny, smolvlm-tiny,blobs")
    check_models_allowed("smolvlm-tiny", "blobs")


def test_not_public_allows_anything(monkeypatch) -> None:
    monkeypatch.delenv("SPACE_ID", raising=False)
    monkeypatch.setenv("WHICHONE_PUBLIC", "0")
    check_models_allowed("anything")
    assert check_bench_request("/etc/passwd", None) is None  # a researcher's own machine: their files


def test_bench_requests_use_published_data_and_a_capped_limit(public, monkeypatch) -> None:
    for data in ("/etc/passwd", "http://127.0.0.1:1/data.jsonl", "  ./local  "):
        with pytest.raises(WhichoneError, match="published datasets only"):
            check_bench_request(data, 5)
    assert check_bench_request("", None) == 20 and check_bench_request(None, 5) == 5
    assert check_bench_request("", 500) == 20
    monkeypatch.setenv("WHICHONE_PUBLIC_BENCH_LIMIT", "3")
    assert check_bench_request("", 10) == 3


def test_settings_refuse_a_model_the_demo_does_not_serve_and_load_nothing(public) -> None:
    pool = ModelPool()
    state = UIState(choice=ModelChoice("tiny", "blobs", None))
    out = SettingsHandlers(pool).apply(
        "qwen2.5-vl-7b", "blobs", "none", "focus_recognition_zs_ecot", 0.5, "marker", 3, 0.6, "largest",
        True, True, False, True, state,
    )  # fmt: skip
    result = out[2]
    assert "Not applied: this public demo serves only blobs, tiny" in result
    assert pool.loaded() == [] and state.choice.vlm == "tiny"


def test_benchmark_form_in_public_mode(public) -> None:
    from ui.bench_handlers import BenchmarkHandlers

    handlers = BenchmarkHandlers(ModelPool())

    def config(model="tiny", judge="rules", limit=50, data="", pointer="blobs"):
        return handlers.config(
            "racquet-general", model, judge, limit, data, None, 0, 0, "none", pointer, None
        )

    assert config().limit == 20  # capped
    assert config(limit=5).limit == 5
    with pytest.raises(WhichoneError, match="published datasets only"):
        config(data="/etc/passwd")
    with pytest.raises(WhichoneError, match="qwen2.5-vl-7b is not available here"):
        config(model="qwen2.5-vl-7b")
    with pytest.raises(WhichoneError, match="smolvlm-256m is not available here"):
        config(judge="smolvlm-256m")  # an LLM judge is a model too
    with pytest.raises(WhichoneError, match="molmo2-4b is not available here"):  # the pipeline's pointer
        handlers.config("whichone-strategy", "tiny", "rules", 5, "", None, 0, 0, "none", "molmo2-4b", None)


def test_public_benchmark_caps_max_new_tokens_and_runs_in_a_session_folder(
    public, tmp_path, monkeypatch
) -> None:
    from types import SimpleNamespace

    from ui.bench_handlers import BenchmarkHandlers
    from ui.bench_inspect import SERVED_PREFIX, served_copies
    from ui.state import end_session

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    monkeypatch.delenv("WHICHONE_PUBLIC_MAX_NEW_TOKENS", raising=False)
    handlers = BenchmarkHandlers(ModelPool())
    request = SimpleNamespace(session_hash="visitor1")

    def config(max_new):
        return handlers.config(
            "racquet-general", "tiny", "rules", 5, "", None, max_new, 0, "none", "blobs", request
        )

    assert config(100_000).max_new_tokens == 256
    assert config(64).max_new_tokens == 64
    assert config(None).max_new_tokens is None  # the task's own (at most 256)
    run_dir = config(None).out_dir
    assert (tmp_path / "gradio").resolve() in run_dir.resolve().parents  # Gradio's folder, not ~/.cache
    run_dir.mkdir(parents=True)
    (run_dir / "summary.json").write_text("{}")
    served = served_copies({"summary": run_dir / "summary.json"}, request, prefix=SERVED_PREFIX)
    assert served["summary"].read_text() == "{}"
    again = served_copies({"summary": run_dir / "summary.json"}, request, prefix=SERVED_PREFIX)
    assert not served["summary"].exists() and again["summary"].exists()  # the previous copies went
    end_session(request)  # the visitor closed the tab: nothing of the run stays
    assert not again["summary"].exists() and not (tmp_path / "gradio" / "bench-run-visitor1").exists()
