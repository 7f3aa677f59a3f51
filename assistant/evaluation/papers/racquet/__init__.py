"""RAcQUEt (Testoni et al.): everything that serves the paper. `paper` (loaders, tasks, tables), `judge`
(judge questions and rules), `parse` (the judge's labels), `metrics`, `saliency` (Table 1) and
`labelled` (the labelled sets the judges are measured on)."""

from assistant.evaluation.papers.racquet.paper import PAPER

__all__ = ["PAPER"]
