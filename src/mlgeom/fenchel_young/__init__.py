r"""Chapter *Online structured prediction with Fenchel–Young losses* (Sakaue et al. 2024).

``from mlgeom import fenchel_young as FY`` gives the notebook everything it uses, by section:

================================================  =============================================
paper                                             module
================================================  =============================================
Sections 2.2–2.3, Appendix C: Fenchel–Young
losses for four structures, the smooth hinge      :mod:`.losses`
Section 2.3 (ranking): Sinkhorn, Birkhoff–von
Neumann                                           :mod:`.birkhoff`
Appendix C.1: ranking on the permutahedron        :mod:`.permutahedron`
Algorithm 1, Lemma 3.1, Appendix D: randomized
decoding and its baselines                        :mod:`.decoding`
Section 2.1: input–output streams                 :mod:`.streams`
Algorithm 2, Theorems 4.2, 4.3, 4.6: online
learning, rates and bounds                        :mod:`.surrogate_regret`
Section 5, Theorem 5.1: compiled multiclass
logistic learner                                  :mod:`.logistic_ogd`
Theorem 5.1 against an adaptive adversary         :mod:`.adversary`
the comparator :math:`\sum_t S_t(U)`              :mod:`.comparator`
Remark 4.5: the scale of the regularizer          :mod:`.regularizer_scale`
the chapter's experiments and figures             :mod:`.experiments`
speed benchmarks (``make bench``)                 :mod:`.bench` (not imported here)
================================================  =============================================
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "adversary": ["adversarial_ogd_batch"],
        "birkhoff": [
            "BvNDecomposition",
            "SinkhornResult",
            "assignment",
            "birkhoff_von_neumann",
            "sinkhorn_log",
        ],
        "regularizer_scale": ["rescaled", "scale_table"],
        "permutahedron": [
            "Permutahedron",
            "decomposition_error",
            "lipschitz_search",
            "permutahedron_decomposition",
            "proposition_c1_gap",
            "project_permutahedron",
        ],
        "comparator": ["Fit", "fit_ball", "fit_ridge", "stream_loss", "worst_case_constant"],
        "decoding": [
            "DECODINGS",
            "Decoding",
            "appendix_d_ratio",
            "appendix_d_ratio_closed_form",
            "decode",
            "expected_target_loss",
            "expected_target_loss_enumerated",
            "lemma31_ratio",
            "multiclass_decoding_law",
            "randomized_decoding",
        ],
        "experiments": [
            "appendix_d_supremum",
            "appendix_d_table",
            "high_probability_table",
            "horizon_table",
            "lemma31_draws",
            "lemma31_line",
            "lemma31_supremum",
            "lower_bound_table",
            "margin_comparison",
            "multiclass_runs",
            "online_to_batch",
            "plot_appendix_d",
            "plot_cumulative",
            "plot_d_scaling",
            "plot_lemma31",
            "plot_lower_bound",
            "slope_table",
            "speed_benchmark",
            "structured_check",
            "theorem_e1_table",
            "worst_case_table",
            "correlated_table",
            "slope_per_seed",
            "second_half_fractions",
            "STEPS",
            "GEOMETRIES",
            "step_size",
            "own_step",
            "uniform_mean_output",
            "uniform_expected_losses",
            "uniform_realised_losses",
        ],
        "logistic_ogd": ["MODES", "BatchRecord", "logistic_ogd_batch", "logistic_ogd_loop"],
        "losses": [
            "Multiclass",
            "Multilabel",
            "Ordinal",
            "Ranking",
            "Structure",
            "isotonic_decreasing",
            "logsumexp",
            "smooth_hinge",
            "softmax",
        ],
        "streams": [
            "SEVEN_SEGMENTS",
            "Stream",
            "digits_segments_stream",
            "digits_stream",
            "lower_bound_instance",
            "planted_stream",
            "prototype_stream",
            "random_prototype_stream",
            "correlated_prototype_stream",
        ],
        "surrogate_regret": [
            "LN2",
            "OnlineRecord",
            "bound_gaptron",
            "bound_theorem_4_2",
            "bound_theorem_4_3",
            "bound_theorem_4_6",
            "bound_theorem_e_1",
            "bound_theorem_5_1",
            "draw_uniforms",
            "eta_gaptron",
            "eta_theorem_4_2",
            "eta_theorem_4_3",
            "eta_theorem_5_1",
            "run_online",
            "run_seeds",
        ],
    },
)
