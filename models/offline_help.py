"""What to tell a user whose stack's weights are not here and cannot be fetched: which models are missing,
about how big each is, and the three ways out, naming the real stack.

The three ways out, in the order a newcomer can take them: the offline stack (cpu-tiny: built here,
nothing to download, its answers are noise); copying weights into the Hugging Face cache from a machine
that has them (`whichone download --stack NAME` there); a mirror of the Hub (HF_ENDPOINT). Whether a
repository is here is read from the cache's folders (no network): a snapshot with a weights file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from models.catalog import STACKS
from models.hub import hub_endpoint, hub_offline
from models.registry import list_models

OFFLINE_STACK = "cpu-tiny"  # built here from the cpu stack's classes: nothing to download


@dataclass(frozen=True)
class MissingWeights:
    """One model whose weights are not in the Hugging Face cache here."""

    name: str  # registry name
    repo: str  # Hub repository
    size: str  # "about 0.51 GB", from the stacks' catalog; "size unknown" elsewhere

    def line(self) -> str:
        return f"{self.name} ({self.repo}, {self.size})"


def catalog_gigabytes(repo_id: str) -> float | None:
    """About how many GB a repository's weights are, as the stacks' catalog says (models/catalog.py)."""
    for stack in STACKS.values():
        for weights in stack.downloads:
            if weights.source == repo_id:
                return weights.gigabytes
    return None


def catalog_size(repo_id: str) -> str:
    gigabytes = catalog_gigabytes(repo_id)
    return "size unknown" if gigabytes is None else f"about {gigabytes:.2f} GB"


def hub_cache() -> Path:
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)


def is_cached(repo_id: str) -> bool:
    """Whether some snapshot of `repo_id` in the Hugging Face cache holds a weights file."""
    from huggingface_hub.file_download import repo_folder_name

    snapshots = hub_cache() / repo_folder_name(repo_id=repo_id, repo_type="model") / "snapshots"
    return any(snapshots.glob("*/*.safetensors")) or any(snapshots.glob("*/*/*.safetensors"))


def missing_weights(names: Sequence[str]) -> list[MissingWeights]:
    """The models among `names` (registry names) whose Hub weights are not in the cache here."""
    by_name = {spec.name: spec for spec in list_models()}
    missing: list[MissingWeights] = []
    for name in names:
        spec = by_name.get(name)
        repo = spec.hub_id if spec is not None else None
        if not repo or repo.startswith(("http://", "https://")) or is_cached(repo):
            continue
        missing.append(MissingWeights(name, repo, catalog_size(repo)))
    return missing


def hub_state() -> str:
    """Why the Hub is not used, in words that are true: not asked (HF_HUB_OFFLINE), or not reachable."""
    if hub_offline():
        return "the model hub is not asked (HF_HUB_OFFLINE is set)"
    return f"the model hub ({hub_endpoint()}) cannot be reached"


def sentence(text: str) -> str:
    """`text` as a sentence that starts a message: its first letter a capital."""
    return text[:1].upper() + text[1:]


def fetch_command(stack: str | None, names: Sequence[str] = ()) -> str:
    """The command that fetches these weights: the whole stack's, or the named models'."""
    return f"whichone download --stack {stack}" if stack else "whichone download " + " ".join(names)


def what_to_do(stack: str | None, names: Sequence[str] = ()) -> str:
    """The three ways out, naming the stack (or the models) the user chose."""
    command = fetch_command(stack, names)
    return (
        f"What to do: try the app now with the offline stack (`whichone serve --stack {OFFLINE_STACK}`, or "
        f"choose {OFFLINE_STACK} in Settings: built here, nothing to download, its answers are noise); or "
        f"run `{command}` on a machine with internet and copy its Hugging Face cache "
        f"({hub_cache()}) to the same place here; or set HF_ENDPOINT to a Hub mirror you can reach."
    )


def unavailable_help(stack: str | None, names: Sequence[str]) -> str:
    """One paragraph: why the weights are not fetched, which are missing with their sizes, what to do."""
    missing = missing_weights(names)
    what = f"the {stack} stack needs" if stack else "these models need"
    if not missing:
        return f"{sentence(hub_state())}. {what_to_do(stack, names)}"
    listed = "; ".join(m.line() for m in missing)
    return (
        f"{sentence(hub_state())}, and {what} weights that are not here: {listed}. {what_to_do(stack, names)}"
    )
