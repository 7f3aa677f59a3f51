"""The benchmark: datasets, tasks, judges, metrics, a resumable cached runner, and reports.

Modules (import what you need; nothing heavy is imported here):
- schema: the one `Example` every dataset loader yields.
- datasets / fetch / masks: loaders for RAcQUEt, AQuA, VQ-FocusAmbiguity, ClearVQA; downloads and caches.
- tasks: the task registry (name -> dataset, prompt variants, judgement, metrics, paper table).
- cache: the sqlite response cache and `CachedVLM`.
- runner: `run_benchmark(RunConfig(...))`; scoring: judgements and metrics per model and prompt.
- report: responses.jsonl, summary.json, table.md, PNG plots; cli: `whichone bench`.
- judgement / judges / response_cues / metrics / localisation / saliency: judging and the papers' metrics.
"""
