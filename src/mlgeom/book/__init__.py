"""The book's machinery: what every chapter uses to record, show and re-run its results.

=====================  ========================================================================
module                 what it does
=====================  ========================================================================
:mod:`.paths`          where the project's folders are (``data/``, ``data/results/``)
:mod:`.profiles`       the ``smoke`` / ``book`` / ``paper`` scales (:func:`pick`)
:mod:`.claims`         claims records: what each notebook measured, judged by its registry
:mod:`.registry`       the criteria registries, ``data/claims/<notebook>.toml`` (preregistration)
:mod:`.verdicts`       each paper's headline claims and their verdicts in plain words
:mod:`.provenance`     when each criterion was registered, relative to its first run (from git)
:mod:`.tables`         DataFrames shown in Jupyter and glued as captioned book tables
:mod:`.plotting`       the house style of every figure
:mod:`.data`           the data manifest, checksums and the one clear error for missing data
:mod:`.reproduce`      ``make reproduce``: re-execute notebooks with papermill (a command,
                       not imported here: it pulls in papermill)
=====================  ========================================================================

This layer imports only the primitives at the top of :mod:`mlgeom` and never a chapter.
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "claims": [
            "COUNT_KEYS",
            "SIGNIFICANT_DIGITS",
            "Baseline",
            "Claim",
            "ClaimsRecord",
            "Criterion",
            "at_least",
            "at_most",
            "between",
            "compare_records",
            "equals",
            "load_record",
            "predicate",
            "summarize",
            "summary_sentence",
            "within_abs",
            "within_rel",
        ],
        "registry": [
            "JUDGES",
            "KINDS",
            "OUTCOMES",
            "SCOPES",
            "Bounds",
            "Headline",
            "Registry",
            "RegistryEntry",
            "load_registry",
            "parse_criterion",
            "registry_dir",
            "registry_path",
        ],
        "data": [
            "DataError",
            "Dataset",
            "data_dir",
            "load_manifest",
            "require",
            "sha256",
            "status",
        ],
        "paths": ["project_root", "results_dir"],
        "verdicts": [
            "DEFINITIONS",
            "HOLM_ALPHA",
            "VERDICTS",
            "HeadlineVerdict",
            "claim_p_value",
            "headline_verdicts",
        ],
        "provenance": [
            "CUTOFF",
            "Provenance",
            "compute_provenance",
            "load_provenance",
            "mixed_commits",
            "provenance_path",
        ],
        "plotting": ["COLORS", "PAPER_STYLE", "figure", "use_style"],
        "profiles": ["PROFILES", "check_profile", "pick"],
        "tables": ["glue_table", "markdown_table"],
    },
)
