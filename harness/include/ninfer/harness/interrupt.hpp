// SPDX-License-Identifier: Apache-2.0
// Interrupted commands (docs/cli.md, "Signals"): SIGINT, SIGTERM and SIGHUP end the process
// with every subject, worker and descendant it started killed, and no output half-written.
#pragma once

namespace ninfer::harness {

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread (call it first in main, before any other
/// thread starts: they inherit the mask) and starts the thread that waits for them. On one it
/// waits for an output file being renamed into place (reports::output_mutex), removes every
/// temporary file (reports::remove_temporaries), SIGKILLs every subject and descendant (none starts afterwards), says so on stderr in one line
/// and ends the process by that signal, so that a shell sees 128 + N (130, 143, 129). A report
/// not yet written is never written.
void handle_interrupts();

}  // namespace ninfer::harness
