"""The Settings tab: models by registry name, the strategy policy's knobs, and what is loaded where.

Settings belong to the browser session (its UIState); models are shared and loaded once (ModelPool).
A model that cannot be loaded leaves the session on its previous models and raises the banner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape
from typing import Any, cast

import gradio as gr

from assistant.errors import WhichoneError
from assistant.marking import MARK_MODES, MarkMode
from assistant.pipeline import RECOGNITION_PROMPTS, AssistantConfig
from assistant.policy import PolicyConfig
from assistant.regions import AreaNorm, SaliencyConfig
from models.catalog import NO_SEGMENTER, STACKS, ModelChoice, stack_name_of
from models.errors import ModelError
from models.registry import list_models
from models.spec import ModelKind
from ui.engine import ModelPool, what_to_do
from ui.gpu import spaces_available
from ui.page_language import page_language_html
from ui.public import allowed_models, check_models_allowed
from ui.state import UIState


def banner_html(pool: ModelPool, choice: ModelChoice) -> str:
    """The first start's download progress while the session's models are fetched; an alert when they
    are not available; empty otherwise."""
    fetch = pool.fetching(choice)
    if fetch is not None:
        bar = ""
        if fetch.phase == "downloading" and fetch.missing_bytes:
            bar = (
                f'<progress max="{fetch.missing_bytes}" value="{fetch.fetched_bytes}" '
                'aria-label="Download progress"></progress>'
            )
        return (
            f'<div class="wh-banner wh-fetching"><p><strong>Getting the models ({escape(choice.label())})'
            f".</strong> {escape(fetch.line())}</p>{bar}</div>"
        )
    message = pool.errors.get(choice)
    if not message:
        return ""
    # role=alert: screen readers read it out as soon as it appears.
    return (
        f'<div role="alert" class="wh-banner"><p><strong>Model not available: {escape(choice.label())}.'
        f"</strong> {escape(message)}</p>"
        + ("" if "What to do:" in message else f"<p>{escape(what_to_do(choice))}</p>")
        + "</div>"
    )


def loaded_markdown(pool: ModelPool, choice: ModelChoice) -> str:
    rows = pool.loaded()
    lines = [f"**This session uses:** {choice.label()}", ""]
    if spaces_available():
        lines.append("Running on a Hugging Face ZeroGPU Space: the GPU is attached per request.\n")
    if not rows:
        lines.append("No model is loaded yet.")
        return "\n".join(lines)
    lines += ["| kind | name | device | details |", "|---|---|---|---|"]
    lines += [f"| {m.kind} | {m.name} | {m.device} | {m.detail or '-'} |" for m in rows]
    return "\n".join(lines)


class SettingsHandlers:
    def __init__(self, pool: ModelPool) -> None:
        self.pool = pool

    def apply(
        self,
        vlm: str,
        pointer: str,
        segmenter: str,
        recognition_prompt: str,
        ambiguity_threshold: float,
        region_marking: str,
        enumerate_max: float,
        threshold: float,
        area_norm: str,
        plural_resolves: bool,
        spatial_resolves: bool,
        trust_unambiguous: bool,
        clarify_without_candidates: bool,
        state: UIState,
    ) -> tuple[Any, ...]:
        """Returns (banner, loaded models, result line, the four model dropdowns, state, the fetch timer).

        Models that are loaded (or built here) switch the session at once. Models from the Hub that are
        not loaded are fetched and loaded in the background, the banner showing how far: the session keeps
        its models meanwhile (`state.pending`) and `poll` switches it once they are ready."""
        choice = ModelChoice(vlm, pointer, None if segmenter in (None, "", NO_SEGMENTER) else segmenter)
        try:
            check_models_allowed(choice.vlm, choice.pointer, choice.segmenter)
            config = _config_from(
                recognition_prompt,
                ambiguity_threshold,
                region_marking,
                PolicyKnobs(
                    enumerate_max,
                    threshold,
                    area_norm,
                    plural_resolves,
                    spatial_resolves,
                    trust_unambiguous,
                    clarify_without_candidates,
                ),
            )
        except (ValueError, WhichoneError) as exc:
            note = f"Not applied: {exc}"
            return gr.skip(), gr.skip(), _result(note), *_dropdowns(state.choice), state, gr.skip()
        state.pending = None  # this Apply replaces one still waiting for its models
        if self.pool.fetches_first(choice):
            return self._fetch_then_switch(state, choice, config)
        try:
            self.pool.load(choice)
        except ModelError as exc:
            note = self._keep(state, exc)
            return (
                banner_html(self.pool, choice),
                loaded_markdown(self.pool, state.choice),
                note,
                *_dropdowns(state.choice),
                state,
                gr.skip(),
            )
        note = self._switch(state, choice, config)
        return "", loaded_markdown(self.pool, choice), note, *_dropdowns(choice), state, gr.skip()

    def _fetch_then_switch(
        self, state: UIState, choice: ModelChoice, config: AssistantConfig
    ) -> tuple[Any, ...]:
        """Apply's outputs for models fetched from the Hub first: they load in the background, and the
        session keeps its own meanwhile (`state.pending`)."""
        self.pool.fetch_then_load(choice, models_label(choice))
        state.pending = (choice, config)
        note = (
            f"Getting {models_label(choice)} ({choice.label()}): the banner shows how far. This session "
            f"keeps {state.choice.label()} until they are ready, then uses them."
        )
        return (
            banner_html(self.pool, choice),
            loaded_markdown(self.pool, state.choice),
            _result(note),
            *_dropdowns(choice),
            state,
            gr.Timer(active=True),
        )

    def _switch(self, state: UIState, choice: ModelChoice, config: AssistantConfig) -> str:
        """The session now uses `choice` (loaded) and `config`; the result line that says so."""
        if choice != state.choice and state.session.image is not None:
            # A different pointer or segmenter means different candidates: ask again for them.
            state.session.candidates = None
        state.choice, state.config, state.pending = choice, config, None
        return _result(f"Applied: {choice.label()}.")

    def _keep(self, state: UIState, error: object) -> str:
        """The applied models could not be loaded: the session keeps its own; the result line that says so."""
        state.pending = None
        return _result(f"Not applied: {_sentence(str(error))} This session keeps {state.choice.label()}.")

    def refresh(self, state: UIState) -> tuple[Any, ...]:
        """The page's load and the Settings tab: (banner, loaded models, the fetch timer). The timer runs
        exactly while a fetch this session waits for is under way (the page's own value is the one at
        build time, when the first start may still have been fetching)."""
        watched = state.pending[0] if state.pending is not None else state.choice
        return (
            banner_html(self.pool, watched),
            loaded_markdown(self.pool, state.choice),
            gr.Timer(active=self.pool.fetching(watched) is not None),
        )

    def poll(self, state: UIState) -> tuple[Any, ...]:
        """The fetch timer, while a first start or an Apply fetches models from the Hub: (banner, loaded
        models, the offline button, the timer, result line, the four model dropdowns, state).

        Once the models an Apply waits for are loaded, the session switches to them; if they failed, the
        banner says why and the session keeps its own. Otherwise the result line and the dropdowns are left
        as they are (the user may be changing them). The timer stops when nothing it watches is under way."""
        shown = state.choice  # whose progress or failure the banner shows
        # Left as they are unless an Apply settles: the user may be changing the dropdowns, and an event
        # that runs meanwhile (a question) owns the state.
        note, dropdowns, new_state = gr.skip(), (gr.skip(),) * 4, gr.skip()
        if state.pending is not None:
            choice, config = state.pending
            if self.pool.fetching(choice) is not None:
                shown = choice
            elif self.pool.is_loaded(choice):
                note, dropdowns, new_state = self._switch(state, choice, config), _dropdowns(choice), state
                shown = choice  # its banner is now empty: the download's last line goes
            else:
                error = self.pool.errors.get(choice) or f"{choice.label()} could not be loaded."
                note, dropdowns, shown = self._keep(state, error), _dropdowns(state.choice), choice
                new_state = state
        # The banner speaks of fetches only: where `shown` was never fetched (the banner's switch to
        # cpu-tiny came first), it keeps what another event wrote there.
        banner = banner_html(self.pool, shown) if shown in self.pool.fetches else gr.skip()
        return (
            banner,
            loaded_markdown(self.pool, state.choice),
            self.offline_visibility(state),
            gr.Timer(active=self.pool.fetching(shown) is not None),
            note,
            *dropdowns,
            new_state,
        )

    def offline_visibility(self, state: UIState) -> Any:
        """The "try the offline stack" button shows exactly while the session's models are not available."""
        return gr.update(visible=bool(self.pool.errors.get(state.choice)))

    def try_offline(self, state: UIState) -> tuple[Any, ...]:
        """One click from the banner to the cpu-tiny stack (built here, no download): (banner, loaded
        models, the button, the four model dropdowns, state). Refused with the banner's reason where the
        demo does not serve it."""
        choice = STACKS[OFFLINE_STACK].choice
        try:
            check_models_allowed(choice.vlm, choice.pointer, choice.segmenter)
            self.pool.load(choice)
        except (WhichoneError, ModelError) as exc:
            text = f"The offline stack could not be used either: {exc}"
            return (
                _result(text),
                loaded_markdown(self.pool, state.choice),
                gr.update(visible=False),
                *(gr.skip(),) * 4,
                state,
            )
        self._switch(state, choice, state.config)
        note = f"Now using the {OFFLINE_STACK} stack ({choice.label()}): it works offline; answers are noise."
        return (
            _result(note),
            loaded_markdown(self.pool, choice),
            gr.update(visible=False),
            *_dropdowns(choice),
            state,
        )


OFFLINE_STACK = "cpu-tiny"  # the stack the banner offers when the session's models are not here
OFFLINE_BUTTON = f"Try the offline {OFFLINE_STACK} stack (built here, no download; its answers are noise)"


def _models(choice: ModelChoice) -> tuple[str, str, str]:
    """The VLM, pointer and segmenter dropdowns' values for `choice`."""
    return choice.vlm, choice.pointer, choice.segmenter or NO_SEGMENTER


def _dropdowns(choice: ModelChoice) -> tuple[str | None, str, str, str]:
    """The stack dropdown's value (None for a custom mix), then the three models'."""
    return stack_of(choice), *_models(choice)


def stack_of(choice: ModelChoice) -> str | None:
    """The name of the stack that is exactly `choice`, or None (a custom mix)."""
    return stack_name_of(choice)


def models_label(choice: ModelChoice) -> str:
    """What the banner and the terminal call `choice` while it is fetched: "the cpu stack", or its models."""
    stack = stack_of(choice)
    return f"the {stack} stack" if stack else choice.label()


def stack_models(name: str) -> tuple[str, str, str]:
    """The three model dropdowns' values for the stack `name` (unchanged for an unknown name)."""
    found = STACKS.get(str(name or ""))
    if found is None:
        return gr.skip(), gr.skip(), gr.skip()
    return _models(found.choice)


def _sentence(text: str) -> str:
    """`text` ending as a sentence does (a model error's message may not), so another can follow it."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _result(text: str) -> str:
    return f'<div role="status" aria-live="polite">{escape(text)}</div>'


def _names(kind: ModelKind) -> list[tuple[str, str]]:
    return [(f"{s.name}: {s.description}", s.name) for s in list_models(kind)]


@dataclass(frozen=True)
class PolicyKnobs:
    """The Strategy policy section's values, as the page sends them."""

    enumerate_max: float
    threshold: float
    area_norm: str
    plural_resolves: bool
    spatial_resolves: bool
    trust_unambiguous: bool
    clarify_without_candidates: bool


def _config_from(
    recognition_prompt: str, ambiguity_threshold: float, region_marking: str, knobs: PolicyKnobs
) -> AssistantConfig:
    """The session's AssistantConfig from the tab's values (checked where they are used: AssistantConfig,
    SaliencyConfig; a client sends any string)."""
    return AssistantConfig(
        recognition_prompt=recognition_prompt,
        ambiguity_threshold=float(ambiguity_threshold),
        region_marking=cast(MarkMode, region_marking),
        policy=PolicyConfig(
            saliency=replace(
                SaliencyConfig(), threshold=float(knobs.threshold), area_norm=cast(AreaNorm, knobs.area_norm)
            ),
            enumerate_max=int(knobs.enumerate_max),
            plural_resolves=bool(knobs.plural_resolves),
            spatial_resolves=bool(knobs.spatial_resolves),
            trust_unambiguous_verdict=bool(knobs.trust_unambiguous),
            clarify_without_candidates=bool(knobs.clarify_without_candidates),
        ),
    )


@dataclass
class _ModelControls:
    """The Models section: the stack, the three models, the recognition prompt, its threshold, marking."""

    stack: gr.Radio
    vlm: gr.Radio
    pointer: gr.Radio
    segmenter: gr.Radio
    prompt: gr.Radio
    ambiguity: gr.Slider
    marking: gr.Radio


def build_settings_tab(
    handlers: SettingsHandlers,
    state: gr.State,
    initial: ModelChoice,
    banner: gr.HTML,
    fetch_timer: gr.Timer,
    gpu_limit: int = 1,
    offline_button: gr.Button | None = None,
) -> dict[str, Any]:
    """The tab's components and events; returns the components the page's other events update. The
    banner and `fetch_timer` (which polls a fetch's progress) are the page's. `gpu_limit` must be the "gpu"
    group's limit: Gradio gives a concurrency group the smallest limit any of its events names, so a lower
    one here would cap them all."""
    # The tab opens with the page's language (issue 36): read and applied by the page's script only.
    gr.HTML(page_language_html(), js_on_load=None, elem_id="wh-page-language", padding=False)
    models = _model_controls(initial)
    knobs = _policy_controls()
    apply_btn = gr.Button("Apply settings", variant="primary", elem_id="wh-apply")
    result = gr.HTML("", js_on_load=None)
    gr.Markdown("## Loaded models")
    loaded = gr.Markdown(elem_id="wh-loaded")
    inputs = [
        models.vlm,
        models.pointer,
        models.segmenter,
        models.prompt,
        models.ambiguity,
        models.marking,
        *knobs,
        state,
    ]
    dropdowns = [models.stack, models.vlm, models.pointer, models.segmenter]
    models.stack.input(
        stack_models,
        [models.stack],
        [models.vlm, models.pointer, models.segmenter],
        api_name="ui_stack",
        api_visibility="private",
    )
    applied = apply_btn.click(
        handlers.apply,
        inputs,
        [banner, loaded, result, *dropdowns, state, fetch_timer],
        api_name="ui_settings",
        api_visibility="private",
        concurrency_id="gpu",
        concurrency_limit=gpu_limit,
    )
    if offline_button is not None:
        applied.then(handlers.offline_visibility, [state], [offline_button], api_visibility="private")
    return {"loaded": loaded, "result": result, "dropdowns": dropdowns}


def _model_controls(initial: ModelChoice) -> _ModelControls:
    """The Models section (its heading says the settings are the session's, and what a public demo serves).

    Radio groups, not dropdowns: Gradio 6.31's dropdown leaves its list open over the labels below when Tab
    moves on (focus then falls to the page body), and cuts long names off under its arrow; a radio group is
    one Tab stop whose arrow keys choose, and its labels wrap (ui/page_script.py names it)."""
    intro = "## Models\nSettings apply to this browser session only. Models are loaded once and shared."
    allowed = allowed_models()
    if allowed is not None:
        served = ", ".join(sorted(allowed - {NO_SEGMENTER}))
        intro += f" This public demo serves only these models: {served}."
    gr.Markdown(intro)
    stack = gr.Radio(
        [(f"{st.name}: {st.description}", st.name) for st in STACKS.values()],
        value=stack_of(initial),
        label="Stack (fills in the three models below; Apply loads them)",
        elem_id="wh-stack",
    )
    vlm = gr.Radio(_names("vlm"), value=initial.vlm, label="Vision-language model", elem_id="wh-vlm")
    pointer = gr.Radio(
        _names("pointer"), value=initial.pointer, label="Pointer (finds candidates)", elem_id="wh-pointer"
    )
    segmenter = gr.Radio(
        [("none: boxes only", NO_SEGMENTER), *_names("segmenter")],
        value=initial.segmenter or NO_SEGMENTER,
        label="Segmenter (one mask per candidate)",
        elem_id="wh-segmenter",
    )
    prompt = gr.Radio(
        list(RECOGNITION_PROMPTS),
        value=AssistantConfig().recognition_prompt,
        label="Ambiguity recognition prompt",
        elem_id="wh-prompt",
    )
    with gr.Row():
        ambiguity = gr.Slider(
            0.0,
            1.0,
            value=AssistantConfig().ambiguity_threshold,
            step=0.05,
            label="Ambiguity threshold: P(ambiguous) at or above it is 'ambiguous' (the yesno prompt)",
            elem_id="wh-ambiguity-threshold",
        )
        marking = gr.Radio(
            list(MARK_MODES),
            value=AssistantConfig().region_marking,
            label="How the chosen region is shown to the model",
            elem_id="wh-marking",
        )
    return _ModelControls(stack, vlm, pointer, segmenter, prompt, ambiguity, marking)


def _policy_controls() -> list[gr.components.Component]:
    """The Strategy policy section, in the order SettingsHandlers.apply takes its values."""
    policy, saliency = PolicyConfig(), SaliencyConfig()
    gr.Markdown("## Strategy policy")
    with gr.Row():
        enumerate_max = gr.Slider(
            2,
            6,
            value=policy.enumerate_max,
            step=1,
            label="Most candidates to answer for each (more: ask which one)",
        )
        threshold = gr.Slider(0.0, 1.0, value=saliency.threshold, step=0.05, label="Saliency threshold")
        area_norm = gr.Radio(["largest", "image"], value=saliency.area_norm, label="Area term relative to")
    with gr.Row():
        plural = gr.Checkbox(value=policy.plural_resolves, label="A plural question is answered about all")
        spatial = gr.Checkbox(
            value=policy.spatial_resolves, label="Place, order and size words pick the candidate"
        )
        trust = gr.Checkbox(
            value=policy.trust_unambiguous_verdict, label="Trust the model's 'unambiguous' verdict"
        )
        clarify = gr.Checkbox(
            value=policy.clarify_without_candidates, label="Ask when judged ambiguous but nothing was found"
        )
    return [enumerate_max, threshold, area_norm, plural, spatial, trust, clarify]
