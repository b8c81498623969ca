"""Chapter *Incremental algorithms for hierarchical classification* (Cesa-Bianchi et al. 2006).

``from mlgeom import hierarchical as H`` gives the notebook everything it uses, by section:

==============================================  ===============================================
paper                                           module
==============================================  ===============================================
Section 2: taxonomies, multilabels that
respect them, G-truncation (Lemma 1)            :mod:`.taxonomy`
Section 3, Remark 5, Table 2: zero-one, Δ and
H-losses, node costs                            :mod:`.losses`
Section 5: the label model, classifier (4),
Theorem 2's bound, eqs. 7 and 10                :mod:`.label_model`
Section 7: Lemmas 7–9 round by round,
Remark 6's average-margin bound                 :mod:`.lemmas`
Sections 4, 6, 8: H-RLS, SH-RLS, S-RLS, H-PERC,
PERC (online)                                   :mod:`.learners`
Section 8: H-SVM and flat SVM (eq. 15)          :mod:`.svm`
Section 8: corpora and the protocols' splits    :mod:`.corpus`
Section 8: bag-of-words vectors                 :mod:`.text_vectors`
Section 8: RCV1-v2 and OHSUMED loaders          :mod:`.rcv1`, :mod:`.ohsumed`
the shipped samples in ``data/hierarchical/``   :mod:`.shipped`
a synthetic RCV1-like corpus (Section 5 model)  :mod:`.synthetic`
the facet benchmark and its Bayes-optimal
H-loss reference (Section 9; issue 14)          :mod:`.benchmark`
the chapter's experiments (Tables 1–2, Fig. 4)  :mod:`.experiments`
speed benchmark (``make bench``)                :mod:`.bench` (not imported here)
==============================================  ===============================================
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "benchmark": [
            "BAYES",
            "CLEAN_CONTROL",
            "CLEAN_FACETS",
            "LEAF_NOISE_CONTROL",
            "MATCHED_LEAF_NOISE_CONTROL",
            "NOISE_SCOPES",
            "PAIRS",
            "PAPER_DIFFERENCES",
            "FacetBenchmark",
            "bayes_h_predict",
            "benchmark_differences",
            "benchmark_protocol",
            "benchmark_table",
            "facet_benchmark",
            "expected_label_flips",
            "facet_sources",
            "matched_leaf_noise",
            "noise_marginals",
            "noise_rates",
            "plot_learning_curves",
            "record_benchmark_claims",
            "reference_bayes_gap",
            "sample_noisy_labels",
            "tie_margin",
        ],
        "corpus": [
            "CorpusFormatError",
            "HierarchicalCorpus",
            "chronological_splits",
            "label_statistics",
            "paths_per_document",
            "random_splits",
        ],
        "experiments": [
            "ALGORITHMS",
            "EMPTY",
            "HIERARCHICAL",
            "LEMMA1_COLUMN",
            "PAPER_TABLE1",
            "PAPER_TABLE2",
            "PAPER_TEST_SIZE",
            "ProtocolResult",
            "RegretResult",
            "TRUNCATED",
            "cost_ranking",
            "cost_table",
            "figure2_example",
            "hloss_definition_checks",
            "hrls_primal",
            "margin_floor_instances",
            "orthonormal_model",
            "paper_table1",
            "paper_table2",
            "plot_figure4",
            "profile_distance",
            "random_model",
            "rcv1_like_forest",
            "record_table1_orderings",
            "record_corpus_claims",
            "corpus_statistics",
            "CORPUS_STATISTICS",
            "run_protocol",
            "sphere_instances",
            "split_losses",
            "table1",
            "table2",
            "theorem2_experiment",
            "uniform_guess_regret",
            "with_empty_prediction",
            "work_counts",
        ],
        "label_model": [
            "BOUND_CONSTANT",
            "HierarchicalLabelModel",
            "Theorem2Bound",
            "eq7_log_term",
            "expected_parent_positives",
            "log_det_term",
            "subtree_costs",
            "theorem2_bound",
        ],
        "lemmas": ["LEMMAS", "LemmaRounds", "lemma_probe", "lemma_rounds"],
        "intervals": [
            "TABLE1_ORDERINGS",
            "corrected_split_interval",
            "table1_orderings",
        ],
        "learners": [
            "HRLS",
            "LEARNERS",
            "SHRLS",
            "SRLS",
            "HPerceptron",
            "Perceptron",
            "make_learner",
        ],
        "losses": [
            "HMistakes",
            "ancestors_agree",
            "depth_costs",
            "h_loss",
            "h_loss_mistakes",
            "h_loss_nodes",
            "per_depth_mistakes",
            "sibling_costs",
            "symmetric_difference_loss",
            "zero_one_loss",
        ],
        "ohsumed": [
            "OHSUMED_FILES",
            "MeshSubtree",
            "OhsumedRecord",
            "load_ohsumed",
            "mesh_subtree",
            "ohsumed_corpus",
            "parse_records",
            "read_mtrees",
            "read_records",
            "read_sample_folder",
            "strip_heading",
        ],
        "rates": [
            "RATE_DESIGNS",
            "RATE_LEARNERS",
            "RateRuns",
            "forecast_log_vs_sqrt",
            "hogd_predictions",
            "hrls_predictions",
            "last_decade",
            "rate_runs",
        ],
        "rcv1": [
            "LYRL_N_FEATURES",
            "SOURCES",
            "corpus_from_sklearn",
            "corpus_from_vectors",
            "load_rcv1",
            "load_rcv1_files",
            "read_hierarchy",
            "read_qrels",
            "read_vectors",
        ],
        "shipped": [
            "DATASET",
            "FILES",
            "build",
            "corpus_for_profile",
            "load_ohsumed_sample",
            "load_rcv1_sample",
            "rcv1_label_stats",
            "rcv1_taxonomy",
            "rcv1_topic_names",
        ],
        "svm": ["FlatSVM", "HierarchicalSVM"],
        "synthetic": ["SyntheticDesign", "synthetic_rcv1_like"],
        "taxonomy": ["Taxonomy", "TaxonomyError"],
        "text_vectors": [
            "STOP_WORDS",
            "TfIdf",
            "hash_features",
            "log_tf_idf",
            "normalize_rows",
            "tokenize",
        ],
    },
)
