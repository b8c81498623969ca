"""Chapter *A geometry primer* (Phillips, "Geometry of machine learning" slides).

``from mlgeom import primer as P`` gives the notebook everything it uses, by slide:

=======================================  ======================================================
slides                                   module
=======================================  ======================================================
"Loss Functions"                         :mod:`mlgeom.algorithms.margin_losses`
"Force h through Origin"                 :mod:`.lifting`
"Coresets for Optimization" (FW, SGD)    :mod:`.coresets`
"Perceptron Algorithm", max margin       :mod:`mlgeom.algorithms.perceptrons`
"Geometry of Why Perceptron Works"       :mod:`.perceptron_proof`
"Polytope Distance" (Gilbert)            :mod:`.polytope_distance`
"Kernels", kernel density estimates      :mod:`mlgeom.algorithms.kernels`
"Kernel Perceptron Algorithm"            :mod:`.kernel_perceptrons`
"Sketched Kernel SVM" (random features)  :mod:`mlgeom.algorithms.random_features`,
                                         :mod:`.sketched_svm`
polynomial regression, model selection   :mod:`.regression`
ε-samples and ε-nets (halfplanes)        :mod:`.range_spaces`
discrepancy-halving ε-samples            :mod:`.discrepancy`
sublevel-set range space (discs)         :mod:`.sublevel`
priority sampling, partition of unity    :mod:`mlgeom.algorithms.sampling`
the chapter's experiments                :mod:`.experiments`
=======================================  ======================================================
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "mlgeom.algorithms.kernels": ["KERNELS", "kde", "kde_sup_error", "kernel_matrix"],
        "mlgeom.algorithms.margin_losses": [
            "MARGIN_LOSSES",
            "exponential",
            "hinge",
            "logistic",
            "margin_loss",
            "margins",
            "squared",
            "zero_one",
        ],
        "mlgeom.algorithms.perceptrons": [
            "DEFAULT_MAX_UPDATES",
            "MaxMarginPerceptronResult",
            "PerceptronResult",
            "margin",
            "max_margin_perceptron",
            "perceptron",
            "planted_margin_data",
        ],
        "mlgeom.algorithms.random_features": [
            "RandomFourierFeatures",
            "random_fourier_features",
            "rff_sup_error",
        ],
        "mlgeom.algorithms.sampling": [
            "PrioritySample",
            "cumulative_weights",
            "priority_estimate_from_tau",
            "priority_sample",
            "select_by_cumulative",
            "weighted_sample",
        ],
        "coresets": [
            "FrankWolfeMean",
            "frank_wolfe_mean",
            "logistic_minimum",
            "logistic_objective",
            "projected_sgd",
        ],
        "experiments": [
            "GAMMA0_TOL",
            "CoresetSweep",
            "GilbertSweep",
            "MOST_VIOLATED_EPS",
            "feature_dimension_sweep",
            "frank_wolfe_sweep",
            "gilbert_sweep",
            "HalvingSweep",
            "halfplane_sample_sweep",
            "halving_sweep",
            "kde_error_sweep",
            "kernel_perceptron_table",
            "lift_runs",
            "max_margin_perceptron_sweep",
            "max_margin_seed_sweep",
            "mistake_bound_sweep",
            "novikoff_alignment",
            "novikoff_alignment_sweep",
            "offset_margin_data",
            "perceptron_proof_sweep",
            "per_seed_slopes",
            "planar_benchmarks",
            "plot_decision_regions",
            "priority_bias_draws",
            "priority_k_compare",
            "rff_error_sweep",
            "rkhs_normalized_margin",
            "sgd_sweep",
            "sketched_perceptron_sweep",
        ],
        "lifting": ["AffinePerceptron", "affine_decision", "lift", "lifted_perceptron"],
        "kernel_perceptrons": ["RULES", "KernelPerceptron", "kernel_perceptron", "rkhs_margin"],
        "perceptron_proof": ["PerceptronProofSteps", "perceptron_proof_steps"],
        "polytope_distance": [
            "GilbertResult",
            "QPResult",
            "class_polytopes",
            "gilbert",
            "polytope_distance_qp",
        ],
        "discrepancy": ["COLLINEAR_TOL", "HalfplaneSweep", "halving_sample", "hilbert_order"],
        "range_spaces": ["EXACT_MAX_POINTS", "halfplane_discrepancy", "halfplane_net_gap"],
        "regression": ["polynomial_cv", "polynomial_fit", "polynomial_sse"],
        "sublevel": ["disc_realizable", "disc_shattered", "disc_shattering_sweep"],
        "sketched_svm": ["SketchedKernelPerceptron", "sketched_kernel_perceptron"],
    },
)
