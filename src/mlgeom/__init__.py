"""Shared code of the *Geometry of learning* reproduction book.

Each module implements one concept from one of the reproduced papers and cites the
equation, theorem or slide it implements. The infrastructure modules are
:mod:`mlgeom.claims` (claims records), :mod:`mlgeom.random` (seeding),
:mod:`mlgeom.data` (data resolution and checksums), :mod:`mlgeom.profiles`
(``smoke``/``book``/``paper`` scales) and :mod:`mlgeom.plotting` (house style).
"""

__version__ = "0.1.0"
