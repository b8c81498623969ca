"""Algorithms that more than one chapter builds on, kept in one place.

=================================  ============================================================
module                             what it implements
=================================  ============================================================
:mod:`.margin_losses`              the margin losses of the primer's "Loss Functions" slides
:mod:`.perceptrons`                the perceptron and its max-margin variant (primer slides);
                                   the plain-Perceptron baseline of the other chapters
:mod:`.multiclass_perceptron`      the online Perceptron (``k = 2``) and multiclass Perceptron
                                   (baselines of the L^p chapter)
:mod:`.kernels`                    kernels and kernel density estimates (primer slides)
:mod:`.random_features`            random Fourier features for the Gaussian kernel
:mod:`.online_gradient`            online gradient descent and coin betting (the "Alg" of
                                   Sakaue et al.'s Algorithm 2)
:mod:`.sampling`                   priority sampling and weighted sampling (primer slides)
=================================  ============================================================

This layer imports only the primitives at the top of :mod:`mlgeom`: never the book machinery
or a chapter.
"""

from mlgeom._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "kernels": ["KERNELS", "kde", "kde_sup_error", "kernel_matrix"],
        "margin_losses": [
            "MARGIN_LOSSES",
            "exponential",
            "hinge",
            "logistic",
            "margin_loss",
            "margins",
            "squared",
            "zero_one",
        ],
        "multiclass_perceptron": ["MulticlassPerceptron", "OnlinePerceptron"],
        "online_gradient": ["OGD", "AdaptiveOGD", "CoinBettingOGD"],
        "perceptrons": [
            "DEFAULT_MAX_UPDATES",
            "MaxMarginPerceptronResult",
            "PerceptronResult",
            "margin",
            "max_margin_perceptron",
            "perceptron",
            "planted_margin_data",
        ],
        "random_features": ["RandomFourierFeatures", "random_fourier_features", "rff_sup_error"],
        "sampling": [
            "PrioritySample",
            "cumulative_weights",
            "priority_estimate_from_tau",
            "priority_sample",
            "select_by_cumulative",
            "weighted_sample",
        ],
    },
)
