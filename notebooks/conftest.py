"""pytest settings for ``make nbval``: the re-executed notebooks' kernels use local IPC sockets.

nbval starts each kernel with jupyter_client's default TCP transport, and every kernel then warns
that it "is running over TCP without encryption". The kernel and nbval share this machine, so
the notebooks run over IPC sockets in a private temporary folder instead (the same kernel
manager as ``make reproduce``, :func:`mlgeom.book.reproduce.ipc_kernel_manager`).
"""

import os

import nbval.kernel

from mlgeom.book.reproduce import ipc_kernel_manager

if os.name != "nt":  # no IPC transport on Windows
    nbval.kernel.KernelManager = ipc_kernel_manager()
