"""ClearVQA (Jian et al., ACL 2025): everything that serves the paper. `paper` (loader, tasks, tables),
`vqa_accuracy` (its answer metrics)."""

from assistant.evaluation.papers.clearvqa.paper import PAPER

__all__ = ["PAPER"]
