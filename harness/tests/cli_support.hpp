// SPDX-License-Identifier: Apache-2.0
// Shared by the CLI tests: run `ninfer-conform` as a process and read what it wrote.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ninfer::harness::test {

/// What a run of the CLI left: exit status (-1 when it did not exit normally), stdout, stderr.
struct Out {
    int status = -1;
    std::string out, err;
};

/// The whole file as bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path &p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// A fresh scratch directory (removed and created again).
inline std::filesystem::path fresh_dir(const std::filesystem::path &p) {
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

/// This process's scratch root, `<build>/cli-test-tmp/<pid>`: CTest runs each test case in a process of its own,
/// so CLI tests share no directory and may run in parallel. Removed when the process that made it exits (a
/// forked child that exits leaves it alone).
inline const std::filesystem::path &scratch_root() {
    struct Root {
        std::filesystem::path path;
        pid_t owner;
        ~Root() {
            std::error_code ec;
            if (::getpid() == owner) std::filesystem::remove_all(path, ec);
        }
    };
    static const Root root{fresh_dir(std::filesystem::path(NINFER_CLI_TEST_TMP_ROOT) / std::to_string(::getpid())),
                           ::getpid()};
    return root.path;
}

/// A fresh scratch directory `name` in this process's root.
inline std::filesystem::path scratch(const std::string &name) { return fresh_dir(scratch_root() / name); }

/// Runs `ninfer-conform ARGS` (shell words) with `input` on stdin, its outputs kept in `dir`;
/// `wrapper` (shell words such as "timeout 20") runs it when given.
inline Out run_cli(const std::filesystem::path &dir, const std::string &args, const std::string &input = "",
                   const std::string &wrapper = "") {
    const auto in = dir / "stdin", out = dir / "stdout", err = dir / "stderr";
    std::ofstream(in, std::ios::binary) << input;
    const std::string cmd = wrapper + " '" + NINFER_CONFORM_EXE + "' " + args + " <'" + in.string() + "' >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int rc = std::system(cmd.c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out), slurp(err)};
}

}  // namespace ninfer::harness::test
