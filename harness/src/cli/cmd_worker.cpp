// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform worker --plugin PATH` (hidden): the isolated worker process of a plugin
// subject; it speaks the binary framing on stdin/stdout (harness/README.md, "Isolation").
#include <memory>

#include "cmd_common.hpp"

namespace ninfer::harness::cli {

void add_worker(CLI::App &app) {
    auto *cmd = app.add_subcommand("worker", "Serve one plugin over stdin/stdout (internal)");
    cmd->group("");
    auto plugin = std::make_shared<std::string>();
    cmd->add_option("--plugin", *plugin, "plugin library")->required();
    cmd->callback([plugin] {
        const int rc = worker_main(*plugin);
        if (rc != 0) throw CLI::RuntimeError(rc);
    });
}

}  // namespace ninfer::harness::cli
