"""Chapter *Maximum-margin multiclass nearest neighbours* (Kontorovich & Weiss 2014).

``from mlgeom import metric_nn as M`` gives the notebook everything it uses, by section:

=============================================  ================================================
paper                                          module
=============================================  ================================================
Section 2: metric spaces, doubling dimension   :mod:`.spaces`
Section 4: conflict graph :math:`G_L`, eq. 12,
vertex cover and its 2-approximation           :mod:`.vertex_cover`
Section 4: SRM over L, eqs. 11, 13, 14, 16     :mod:`.srm`
Section 2, eq. 5: the surrogate losses         :mod:`.surrogates`
Lemmas 2–3, Theorems 1 and 5, eq. 14: bounds   :mod:`.bounds`
Section 5.1: (1+η)-approximate NN, eq. 15      :mod:`.index`
Section 5.1: Lemma 6, η-perturbed bounds       :mod:`.perturbation`
seeded tasks (digits, strings, softmax)        :mod:`.tasks`
the chapter's experiments and figures          :mod:`.experiments`
speed benchmarks (``make bench``)              :mod:`.bench` (not imported here)
=============================================  ================================================
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "bounds": [
            "BOUNDS",
            "C_D_DEFAULT",
            "complexity",
            "crossover",
            "delta_combined",
            "delta_fat",
            "delta_rad",
            "log_covering_lemma2",
            "log_covering_lemma3",
            "TABLE1_RATES",
            "table1_rates",
            "theorem1_bound",
        ],
        "experiments": [
            "TaskResult",
            "compare_on_task",
            "cover_crosscheck",
            "eta_bound_table",
            "eta_srm_splits",
            "exact_q_check",
            "exact_q_instances",
            "figure3_crossovers",
            "figure3_table",
            "index_check",
            "k_dependence_table",
            "k_sweep_seeds",
            "k_sweep_srm",
            "knn_cv",
            "lmargin_runs",
            "oracle_deviation_check",
            "plot_figure3",
            "plot_q_curve",
            "random_subset_1nn",
            "ShrinkScan",
            "limit_threshold",
            "shrink_scan",
            "srm_vs_1nn_splits",
            "theorem1_k_sweep",
            "theorem1_sweep",
            "timing_sweep",
        ],
        "index": ["MetricBallTree", "NNResult"],
        "perturbation": ["delta_eta", "eq16_oracle_deviation", "log_covering_lemma6"],
        "spaces": [
            "METRICS",
            "PAD",
            "MetricLike",
            "check_distance_matrix",
            "check_metric_input",
            "decode_strings",
            "diameter",
            "doubling_dimension",
            "edit_distance",
            "edit_distance_matrix",
            "encode_strings",
            "greedy_net",
            "pairwise_distances",
        ],
        "srm": ["QCurve", "SRMNearestNeighbors", "binary_search_crossing", "margin_function"],
        "surrogates": ["cutoff_loss", "margin_loss", "surrogate_risks"],
        "tasks": [
            "ALPHABET",
            "RareClassProblem",
            "SoftmaxProblem",
            "Task",
            "digits_task",
            "flip_labels",
            "string_task",
        ],
        "vertex_cover": [
            "ConflictPairs",
            "conflict_edges",
            "exact_vertex_cover",
            "is_vertex_cover",
            "matching_cover",
            "prune_cover",
        ],
    },
)
