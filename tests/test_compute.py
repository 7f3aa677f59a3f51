"""One thread runs the models' CPU torch work (models/compute.py): whoever calls, nested calls inline,
errors in the caller, GPU models in the caller's thread, builds in a thread that ends; and the real tiny
stack, asked from a worker thread as Gradio asks it, runs every module's forward on the compute thread."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from assistant.ahead import ahead
from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Strategy
from models.base import GenerationSettings
from models.compute import THREAD_NAME, compute_thread, in_passing_thread, on_compute_thread
from models.hf_streaming import start_generation
from ui.cli.perf_scene import cups_scene

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class Worker:
    """A model-like object: where its decorated methods run depends on its `device`."""

    def __init__(self, device: str = "cpu") -> None:
        self.device = device

    @on_compute_thread
    def where(self) -> threading.Thread:
        return threading.current_thread()

    @on_compute_thread
    def nested(self) -> tuple[threading.Thread, threading.Thread]:
        return threading.current_thread(), self.where()

    @on_compute_thread
    def fail(self) -> None:
        raise ValueError("the model's own error")


def test_a_decorated_method_runs_on_one_thread_whoever_calls() -> None:
    worker = Worker()
    here = worker.where()
    with ThreadPoolExecutor(4, thread_name_prefix="caller") as pool:
        there = list(pool.map(lambda _: worker.where(), range(8)))
    assert here.name == THREAD_NAME and here is not threading.current_thread()
    assert all(thread is here for thread in there)
    assert here is compute_thread().thread and here.is_alive()


def test_a_nested_call_runs_inline_without_deadlock() -> None:
    with ThreadPoolExecutor(1) as pool:
        outer, inner = pool.submit(Worker().nested).result(timeout=30)
    assert outer is inner and outer.name == THREAD_NAME


def test_an_error_reaches_the_caller_and_the_thread_goes_on() -> None:
    worker = Worker()
    with pytest.raises(ValueError, match="the model's own error"):
        worker.fail()
    assert worker.where().name == THREAD_NAME


def test_a_gpu_model_runs_in_the_callers_thread() -> None:
    assert Worker("cuda:0").where() is threading.current_thread()
    assert Worker("cuda").nested()[0] is threading.current_thread()


def test_a_build_runs_in_a_thread_that_has_ended() -> None:
    built = in_passing_thread(lambda size: (threading.current_thread(), [0] * size), size=3)
    thread, value = built
    assert value == [0, 0, 0] and thread is not threading.current_thread()
    assert thread is not compute_thread().thread and not thread.is_alive()
    with pytest.raises(KeyError):
        in_passing_thread(dict().__getitem__, "missing")


def test_a_stream_whose_reader_stopped_before_it_started_is_dropped() -> None:
    """start_generation (models/hf_streaming.py): queued behind other work, a stream the reader closed
    is never run."""
    release, ran = threading.Event(), []
    busy = compute_thread().submit(lambda: release.wait(30))
    finish = start_generation(Worker(), lambda: ran.append(True), "test-stream")
    finish()  # the reader stops while the generation is still queued: it returns at once
    release.set()
    busy.result(timeout=30)
    compute_thread().run(lambda: None)  # everything queued before this has been served
    assert ran == []
    finish = start_generation(Worker("cuda"), lambda: ran.append(threading.current_thread()), "gpu-stream")
    finish()
    assert ran and ran[0].name == "gpu-stream"


@pytest.fixture(scope="module")
def tiny_stack(tmp_path_factory: pytest.TempPathFactory):
    """The cpu stack's classes built tiny: SmolVLM, OWL-ViT and SAM 2, through the registry."""
    from models.registry import create_pointer, create_segmenter, create_vlm

    root: Path = tmp_path_factory.mktemp("compute-stack")
    vlm = create_vlm("smolvlm-tiny", target_dir=root / "smolvlm", device="cpu")
    pointer = create_pointer("owlvit-random-tiny", target_dir=root / "owlvit", device="cpu")
    segmenter = create_segmenter("sam2-random-tiny", target_dir=root / "sam2", device="cpu")
    return vlm, pointer, segmenter


def test_the_tiny_stack_asked_from_a_worker_thread_runs_every_forward_on_the_compute_thread(
    tiny_stack,
) -> None:
    vlm, pointer, segmenter = tiny_stack
    models = {"vlm": vlm._model, "detector": pointer._model, "segmenter": segmenter._model}
    owner = {id(module): name for name, model in models.items() for module in model.modules()}
    seen: dict[str, set[str]] = {}  # thread name -> the models that ran a module's forward in it
    lock = threading.Lock()

    def record(module, _inputs) -> None:
        with lock:
            seen.setdefault(threading.current_thread().name, set()).add(owner[id(module)])

    hooks = [
        module.register_forward_pre_hook(record) for model in models.values() for module in model.modules()
    ]
    config = AssistantConfig(answer_settings=GenerationSettings(max_new_tokens=6))
    assistant = Assistant(vlm, Grounder(pointer, segmenter), config)

    def two_turns() -> Strategy:
        session = assistant.open_image(cups_scene(320, 240, n=4))
        time.sleep(0.5)  # the user types while the photo is read in the background
        events = list(assistant.ask_events(None, "What colour is the cup?", session))
        reply, session = events[-1].reply, events[-1].session
        if reply.candidates.regions:
            list(assistant.resolve_events(session, reply.candidates.regions[0].id))
        return reply.strategy

    try:
        with ThreadPoolExecutor(1, thread_name_prefix="gradio-like") as pool:
            pool.submit(two_turns).result(timeout=600)
        ahead().settle(timeout=120)
        assistant.grounder.close()
    finally:
        for hook in hooks:
            hook.remove()
    assert set(seen) == {THREAD_NAME}, seen
    assert seen[THREAD_NAME] == set(models)


def test_the_process_exits_with_its_own_status_while_a_call_runs() -> None:
    """At exit the compute thread finishes its call and ends before the interpreter is torn down: a thread
    still in torch's C++ code then aborted the process ("terminate called without an active exception";
    `whichone bench` stopped by SIGTERM exited -6 instead of 130)."""
    script = (
        "import sys, time, torch\n"
        "from models.compute import compute_thread\n"
        "def work():\n"
        "    x, end = torch.randn(128, 128), time.time() + 1.5\n"
        "    while time.time() < end:\n"
        "        x = torch.tanh(x @ x)\n"
        "running = compute_thread().submit(work)\n"
        "queued = compute_thread().submit(lambda: print('a queued call ran at exit'))\n"
        "time.sleep(0.3)\n"
        "sys.exit(130)\n"
    )
    repo = Path(__file__).resolve().parents[1]  # `-c` puts the working folder first on sys.path
    command = [sys.executable, "-c", script]
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=120)
    assert done.returncode == 130, done.stderr
    assert "terminate called" not in done.stderr and "queued call ran" not in done.stdout
