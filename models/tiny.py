"""Tiny local checkpoints of real architectures, built here without any model hub: one recipe for all.

A `TinyRecipe` says how one checkpoint is made (its folder under <cache>/tiny/, the seed of its random
weights, its version, and `build_into`, which writes the files); `build_tiny(recipe)` builds it once and
reuses it after. Each checkpoint is written with the real transformers classes and `save_pretrained`, so
`AutoProcessor` / `AutoModel*.from_pretrained(dir)` load it exactly as they load real weights, and tests and
offline demos run the adapters' real code path on it in a fraction of a second. The recipes live with what
they build: a grounding family's in its record (models/families/), the others in models/tiny_*.py. This
module holds what they share: a locally trained byte-level BPE, the completeness marker, and the
build-then-rename that makes concurrent builders safe.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.config import model_config


@dataclass(frozen=True)
class TinyRecipe:
    """How one tiny checkpoint is made. `build_into(folder, seed)` writes the checkpoint's files into
    `folder`, drawing its random weights from `seed`, and returns the facts its marker records; bump
    `version` when the files it writes change, so a cached checkpoint of an older recipe is rebuilt."""

    folder: str  # under <cache>/tiny/
    seed: int
    build_into: Callable[[Path, int], dict[str, Any]]
    version: int = 1

    def default_dir(self) -> Path:
        return default_cache_dir() / "tiny" / self.folder


def build_tiny(recipe: TinyRecipe, target_dir: Path | None = None, *, overwrite: bool = False) -> Path:
    """Build (or reuse) the tiny checkpoint of `recipe` and return its directory (default: the cache's).

    Reuses `target_dir` when it holds a complete checkpoint of the recipe's version. Builds into a temporary
    sibling directory and renames it into place, so concurrent builders never see a half-written one.
    """
    target = Path(target_dir) if target_dir is not None else recipe.default_dir()

    def build_into(out: Path) -> dict[str, Any]:
        return recipe.build_into(out, recipe.seed)

    return build_atomically(
        target, build_into, recipe_version=recipe.version, seed=recipe.seed, overwrite=overwrite
    )


def default_cache_dir() -> Path:
    """Root of whichone's local caches: the configured one (WHICHONE_CACHE_DIR), else ~/.cache/whichone."""
    return model_config().cache_dir


MARKER = "whichone_tiny.json"


def word_walk(words: Sequence[str], lines: int, line_step: int, word_step: int, width: int) -> list[str]:
    """Deterministic English-like lines for BPE training (no files, no downloads): line i takes `width`
    words, the k-th being words[(i * line_step + k * word_step) % len(words)]."""
    n = len(words)
    return [" ".join(words[(i * line_step + k * word_step) % n] for k in range(width)) for i in range(lines)]


def train_byte_level_bpe(corpus: Iterable[str], special_tokens: Sequence[str], vocab_size: int) -> Any:
    """A byte-level BPE whose special tokens take the ids right after the learnt vocabulary.

    `vocab_size` counts the special tokens too. Returns a `tokenizers.Tokenizer`.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(special_tokens),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),  # every byte is encodable
        show_progress=False,
    )
    tokenizer.train_from_iterator(corpus, trainer=trainer)
    tokenizer.add_special_tokens(list(special_tokens))
    return tokenizer


def seeded_model(model_class: Callable[[Any], Any], config: Any, seed: int) -> Any:
    """`model_class(config)` in eval mode, its random weights drawn after `torch.manual_seed(seed)` (the
    same weights at every build of a recipe)."""
    import torch

    torch.manual_seed(seed)
    return model_class(config).eval()


def save_checkpoint(out: Path, model: Any, processor: Any, **facts: Any) -> dict[str, Any]:
    """Write `model` and its processor to `out` as `from_pretrained` reads them; the marker's facts: the
    parameter count and `facts`."""
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return {"parameters": sum(p.numel() for p in model.parameters()), **facts}


def is_complete(directory: Path, recipe_version: int) -> bool:
    """True when `directory` holds every file its marker lists, written by recipe `recipe_version`."""
    try:
        info = json.loads((directory / MARKER).read_text())
    except (OSError, ValueError):
        return False
    if info.get("recipe_version") != recipe_version:
        return False
    return all((directory / name).is_file() for name in info.get("files", []))


def build_atomically(
    target: Path,
    build_into: Callable[[Path], dict],
    *,
    recipe_version: int,
    seed: int,
    overwrite: bool = False,
) -> Path:
    """Build (or reuse) a checkpoint at `target` and return `target`.

    Reuses `target` when it holds a complete checkpoint of `recipe_version`. Otherwise `build_into(dir)`
    writes the files into a temporary sibling directory (returning facts for the marker), which is then
    renamed into place, so concurrent builders never see a half-written one.
    """
    if not overwrite and is_complete(target, recipe_version):
        return target

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.build-", dir=target.parent))
    try:
        info = build_into(staging)
        files = sorted(p.name for p in staging.iterdir() if p.is_file())
        marker = {"recipe_version": recipe_version, "seed": seed, "files": files, **info}
        (staging / MARKER).write_text(json.dumps(marker, indent=2))
        if target.exists():
            if not overwrite and is_complete(target, recipe_version):
                return target  # another process finished first; keep theirs
            shutil.rmtree(target)
        try:
            staging.rename(target)
        except OSError:
            # Lost a race to another builder between the check and the rename: theirs is as good.
            if not is_complete(target, recipe_version):
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def chat_token_ids(
    ids: dict[str, int], *, bos: str = "<|endoftext|>", eos: str = "<|im_end|>", pad: str = "<|endoftext|>"
) -> dict[str, Any]:
    """bos/eos/pad ids for a checkpoint's text and top-level configs.

    The defaults are the ChatML-style format (<|im_end|> ends a turn); `ids` maps the named special tokens to
    their ids.
    """
    return {"bos_token_id": ids[bos], "eos_token_id": ids[eos], "pad_token_id": ids[pad]}


def eos_generation_config(
    ids: dict[str, int],
    *,
    eos: Sequence[str] = ("<|im_end|>", "<|endoftext|>"),
    pad: str = "<|endoftext|>",
    bos: str = "<|endoftext|>",
) -> Any:
    """Greedy GenerationConfig that stops at any of the `eos` tokens.

    The defaults stop at <|im_end|> or <|endoftext|> (the ChatML-style format); `ids` maps the named
    special tokens to their ids.
    """
    from transformers import GenerationConfig

    return GenerationConfig(
        eos_token_id=[ids[tok] for tok in eos],
        pad_token_id=ids[pad],
        bos_token_id=ids[bos],
        do_sample=False,
    )
