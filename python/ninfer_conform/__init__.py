# SPDX-License-Identifier: Apache-2.0
"""ninfer_conform: write a ninfer-conform subject in Python (issue 25, item 6).

The harness (``ninfer-conform run --exec "python3 my_codec.py"``) talks to a subject over its
stdin and stdout in the exec protocol (harness/README.md, "The exec protocol"). This package
speaks that protocol, binary frames included, so that a kernel author declares capabilities and
writes one function per op; see :class:`Subject`.
"""
from ninfer_conform.sdk import Call, Refused, Reply, Status, Subject

__all__ = ["Call", "Refused", "Reply", "Status", "Subject"]
__version__ = "0.1.0"  # the SDK's own version; the protocol it speaks is exec ABI 2
