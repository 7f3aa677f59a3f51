"""VQ-FocusAmbiguity (Chen et al.): everything that serves the paper. `paper` (loader, tasks, tables),
`metrics` (recognition, Table 2), `localisation` (Table 3), `calibration`."""

from assistant.evaluation.papers.focus_ambiguity.paper import PAPER

__all__ = ["PAPER"]
