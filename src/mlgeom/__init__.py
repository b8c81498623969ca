"""Shared code of the *Geometry of learning* reproduction book.

The package is layered; a module imports only from its own layer or from layers below it:

1. **Primitives** (this folder): :mod:`mlgeom.random` (explicit randomness),
   :mod:`mlgeom.stats` (slopes and intervals used to judge claims), :mod:`mlgeom.parallel`
   (:func:`~mlgeom.parallel.pmap` for sweeps) and the private helpers ``_validation`` and
   ``_frozen`` and ``_lazy`` (the subpackages' lazy exports). They import nothing from the
   subpackages.
2. **Book machinery** (:mod:`mlgeom.book`: claims records, profiles, tables, plotting style,
   data manifest, the reproduce runner) and **shared algorithms** (:mod:`mlgeom.algorithms`:
   perceptrons, margin losses, kernels, random features, online gradient descent, sampling).
   Each imports only the primitives (and itself); neither imports the other or a chapter.
3. **Chapters**, one subpackage per notebook of the book: :mod:`mlgeom.primer`,
   :mod:`mlgeom.metric_nn`, :mod:`mlgeom.fenchel_young`, :mod:`mlgeom.multiscale`,
   :mod:`mlgeom.hierarchical`. A chapter imports the layers below and never another chapter.

``tests/test_layout.py`` fails on an import circle or on an import that points upward or
sideways. A notebook's set-up cell reads ``from mlgeom import hierarchical as H`` plus the book
helpers; each chapter's ``__init__`` maps the paper's sections to its modules.
"""

__version__ = "0.1.0"
