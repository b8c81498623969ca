"""Chapter *L^p multiscale kernels for online multiclass NN* (Guruganesh et al. 2021).

``from mlgeom import multiscale as L`` gives the notebook everything it uses, by section:

================================================  =============================================
paper                                             module
================================================  =============================================
Section 2: nearest-neighbour partitions, losses,
robust mistakes                                   :mod:`.losses`
[LLS20] Algorithm 1, Appendix A: contextual
search on a knowledge set                         :mod:`.contextual_search`
Sections 3–4, Theorems 8 and 11, Lemma 32:
hyperplane and multiclass partition learners      :mod:`.partition_learners`
Section 5, Appendix E: the kernel maps T, Q,
δ_i, D_i, H_i for :math:`L^p`                     :mod:`.kernel_maps`
Algorithm 1's printed law: exact median in d = 2,
per-state hit-and-run pools in d > 2              :mod:`.printed_law`
Algorithm 2, Theorem 13: the multiscale learner   :mod:`.learner`
the chapter's experiments and query streams       :mod:`.experiments`
seeded sweeps through ``pmap``                    :mod:`.sweeps`
strawmen: midpoint, centroid, halving learners,
uniform guessing                                  :mod:`.baselines`
Section 1.2, Theorem 8: an adaptive adversary     :mod:`.adversary`
Theorem 12, Appendix E.2: the explicit bound and
the loss against p and d                          :mod:`.even_p_rate`
Remark 3.4: majority vote instead of Lemma 3.2's
LP, its adversary and sweep                       :mod:`.majority_vote`
worst cases of Lemma E.2 and Claim 28             :mod:`.worst_case`
Lemma F.1: spherical caps at the worst case       :mod:`.sphere_caps`
Appendix F, Theorem 33: strict separation of
cones, the adversary's invariants (i)-(ii)      :mod:`.separation`
Lemma E.4: the share of a polytope in a strip     :mod:`.strip_volume`
speed benchmark (``make bench``)                  :mod:`.bench` (not imported here)
================================================  =============================================
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "adversary": [
            "MARGIN_CYCLE",
            "SEPARATING_FLOOR",
            "adversarial_run",
            "least_informed_direction",
            "separating_margins",
        ],
        "baselines": [
            "CentroidLearner",
            "HalvingLearner",
            "MidpointLearner",
            "run_midpoint",
            "uniform_guessing_loss",
        ],
        "contextual_search": [
            "BallKnowledgeSet",
            "ContextualSearch",
            "ball_fraction",
            "disk_polygon_area",
            "initial_potential",
            "irredundant_cuts",
            "minkowski_halfplane_area",
            "project_ball_cone",
            "split_fraction_mc",
            "steiner_area",
            "printed_steps",
            "uniform_ball",
            "z_scale",
        ],
        "printed_law": [
            "halfplane_area_2d",
            "median_2d",
            "state_rng",
            "sum_boundary_2d",
        ],
        "even_p_rate": [
            "EVEN_P_LEARNERS",
            "even_p_adversarial_run",
            "even_p_bound",
            "even_p_loss_scale",
            "even_p_rate_summary",
            "even_p_rate_sweep",
            "power_law_exponents",
        ],
        "experiments": [
            "appendix_f_stream",
            "boundary_stream",
            "claim29_box_slack",
            "margin_nn_stream",
            "margin_stream",
            "nn_stream",
            "run_appendix_f",
            "run_binary",
            "run_multiclass",
            "run_multiscale",
            "run_multiscale_multiclass",
            "sampler_check",
            "time_rounds",
            "unit",
        ],
        "kernel_maps": [
            "D_i",
            "D_map",
            "F_even",
            "definition20_displayed",
            "F_i",
            "G_even",
            "G_i",
            "H_even",
            "H_i",
            "Ker",
            "Ker_i",
            "Q_map",
            "SparseVector",
            "T_map",
            "delta_i",
            "lemma_e1_rhs",
            "lemma_e1_error_exact",
            "lemma_e2_bound",
            "lemma_e2_error_exact",
            "map_dimension",
            "p_prime",
            "sparse_dot",
        ],
        "learner": [
            "MultiscaleLearner",
            "MultiscaleMulticlassLearner",
            "ScaleSet",
            "scale_loss_bound",
            "threshold",
        ],
        "majority_vote": [
            "REMARK34_LEARNERS",
            "MajorityVoteLearner",
            "remark34_centres",
            "remark34_query",
            "remark34_run",
            "remark34_sweep",
        ],
        "separation": ["appendix_f_invariants", "cone_pointedness", "separation_margin"],
        "strip_volume": [
            "cone_strip_fraction",
            "lemma_e4_probe",
            "lemma_e4_slack",
            "strip_fraction",
            "worst_strip_fraction",
        ],
        "sweeps": [
            "ADVERSARY_LEARNERS",
            "SEPARATING_LEARNERS",
            "adversary_sweep",
            "binary_sweep",
            "convex_sweep",
            "dims_sweep",
            "bits_slope_interval",
            "late_slope",
            "late_slope_gap_interval",
            "late_slope_interval",
            "margin_sweep",
            "thm17_sweep",
            "mixed_margin_stream",
            "multi_sweep",
            "multiscale_runs",
            "PRINTED",
            "printed_split_runs",
            "sampler_runs",
            "separating_sweep",
        ],
        "losses": ["nn_loss", "robust_mistakes", "similarity", "true_label"],
        "sphere_caps": ["cap_fraction", "lemma_f1_constant", "lemma_f1_worst_case"],
        "worst_case": [
            "claim28_constant",
            "claim28_remainder",
            "claim28_worst_case",
            "holder_step_ratio",
            "holder_step_worst_case",
            "lemma_e2_worst_case",
        ],
        "partition_learners": [
            "HyperplaneLearner",
            "MulticlassLearner",
            "cone_extent",
            "lemma32_distribution",
        ],
    },
)
