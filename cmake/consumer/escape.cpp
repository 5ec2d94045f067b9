// SPDX-License-Identifier: Apache-2.0
// A program linking a library component of the installed package (ninfer_conform::reports).
#include <cstdio>

#include "ninfer/reports/html.hpp"

int main() {
    std::printf("%s\n", ninfer::reports::html_escape("<a & b>").c_str());
    return 0;
}
