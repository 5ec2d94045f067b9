// SPDX-License-Identifier: Apache-2.0
// Where the CLI finds its bundled plugins and golden vectors (docs/cli.md, "Directories"):
// beside its own executable (/proc/self/exe) at run time, so an install works from any prefix.
#pragma once

#include <filesystem>
#include <string>

namespace ninfer::harness::cli {

/// The directories in use and how they were found.
struct Directories {
    std::filesystem::path exe;      ///< this executable, resolved
    std::string mode;               ///< "build tree" or "installed"
    std::filesystem::path plugins;  ///< bundled plugins
    std::filesystem::path vectors;  ///< golden vectors
};

/// Build tree when this executable sits in the build directory it was linked in; otherwise
/// installed: the plugin and vector directories relative to the executable's directory.
/// An installed (or copied) executable never looks at the build tree.
Directories directories_for(const std::filesystem::path &exe);
/// directories_for(/proc/self/exe), computed once.
const Directories &directories();
/// The lines `--version` prints after the version: executable, mode, plugins, vectors.
std::string directories_text();

}  // namespace ninfer::harness::cli
