"""AQuA (Jeong et al.): everything that serves the paper. `paper` (loader, tasks, tables), `judge`
(judge questions and rules), `parse` (the judge's labels), `metrics`."""

from assistant.evaluation.papers.aqua.paper import PAPER

__all__ = ["PAPER"]
