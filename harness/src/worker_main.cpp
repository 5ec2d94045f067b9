// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform-worker worker --plugin PATH`: the isolated worker on its own, for tests and
// for harnesses that do not ship the full CLI (harness/README.md, "Isolation").
#include <cstdio>
#include <cstring>
#include <string>

#include "ninfer/harness/subject.hpp"

int main(int argc, char **argv) {
    if (argc != 4 || std::strcmp(argv[1], "worker") != 0 || std::strcmp(argv[2], "--plugin") != 0) {
        std::fprintf(stderr, "usage: %s worker --plugin PATH\n", argc > 0 ? argv[0] : "ninfer-conform-worker");
        return 2;
    }
    return ninfer::harness::worker_main(argv[3]);
}
