#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what ninfer-conform needs on Debian 12, as root (`--clang`: also clang), and the libraries of the
# ecosystem subjects (scripts/ecosystem/install.sh). Idempotent: installs only what is missing, so a second run
# changes nothing and needs no network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libmpfr-dev libgmp-dev libboost-dev
  catch2 nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev
  python3 python3-jsonschema
  python3-yaml   # the docs snippet test parses every YAML block and action.yml (harness/tests/doc_snippets_test.py)
  shellcheck     # the same test checks every shell block with it (skipped without it: install it so CI does not)
  python3-venv   # the Python SDK's offline install test and the README's venv line (python/tests/install_test.sh)
  python3-numpy  # the numpy codec of the README's quick start (harness/examples/numpy_codec.py)
  chromium       # the HTML report's check in a real browser (reports/tests/html_in_browser.sh)
  lintian        # the Debian packages' check (cmake/test_deb.cmake): no lintian error or warning
  libxml2-utils  # xmllint: the JUnit XML against junit-10.xsd (reports/tests/junit_schema.sh)
)
# `setup.sh --clang` (scripts/fuzz.sh, scripts/asan.sh): also clang and its libFuzzer and sanitizer runtimes.
if [[ ${1:-} == --clang ]]; then
  packages+=(clang libclang-rt-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#packages[@]} packages present"
fi

# The ecosystem subjects' libraries (docs/ECOSYSTEM.md): Debian and npm packages at pinned versions.
bash "$(dirname "$0")/ecosystem/install.sh"

if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup: CUDA toolkit found at /usr/local/cuda: gpu/ will be built"
else
  echo "setup: no CUDA toolkit at /usr/local/cuda: gpu/ is skipped"
fi
