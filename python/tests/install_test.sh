#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 6: `pip install ./python` works offline (--no-index: the in-tree build backend
# needs nothing downloaded) into a venv over Debian's Python, and the numpy example then runs
# on the installed package. Skipped (77) without the venv module or numpy.
# Usage: install_test.sh NINFER_CONFORM PYTHON SOURCE_DIR SCRATCH_DIR
set -u
cli=$1 py=$2 src=$3 dir=$4
"$py" -c 'import venv, ensurepip, numpy' 2>/dev/null || { echo "install_test: $py lacks venv, ensurepip or numpy; skipped"; exit 77; }
rm -rf "$dir" && mkdir -p "$dir"
export PYTHONDONTWRITEBYTECODE=1 PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
fail() { echo "install_test: $*"; exit 1; }
"$py" -m venv --system-site-packages "$dir/venv" || fail "python3 -m venv failed"
"$dir/venv/bin/pip" install --no-index "$src/python" >"$dir/pip.out" 2>&1 || { cat "$dir/pip.out"; fail "pip install --no-index failed"; }
installed=$(cd / && "$dir/venv/bin/python" -c 'import ninfer_conform; print(ninfer_conform.__file__)')
[[ $installed == "$dir/venv/"* ]] || fail "ninfer_conform imported from $installed, not the venv"
"$cli" run --exec "$dir/venv/bin/python $src/harness/examples/numpy_codec.py" --suite scalar.decode --level full \
  >"$dir/run.out" 2>&1 || { cat "$dir/run.out"; fail "the numpy example's decode failed on the installed SDK"; }
grep -q "result: PASS" "$dir/run.out" || { cat "$dir/run.out"; fail "no PASS"; }
echo "install_test: installed offline at $installed; the numpy example passes scalar.decode"
