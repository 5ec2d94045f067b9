#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the libraries of the ecosystem subjects (docs/ECOSYSTEM.md) at pinned versions, as root on
# Debian 12: the Debian packages below at these exact versions, and the npm packages of
# package-lock.json beside this script (npm ci checks each tarball's sha512 against the lock; install
# scripts disabled) into $NINFER_ECOSYSTEM_DIR (default .ecosystem/ at the repository root). Idempotent:
# a second run installs nothing and needs no network. Called by scripts/setup.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${NINFER_ECOSYSTEM_DIR:-$root/.ecosystem}

debs=(libfp16-dev=0.0~git20200514.4dfe081-3 libeigen3-dev=3.4.0-4
      rustc=1.63.0+dfsg1-2 cargo=0.66.0+ds1-1 librust-half-dev=1.6.0-2)  # Debian's Rust builds the half crate offline
missing=()
for d in "${debs[@]}"; do
  have=$(dpkg-query -W -f='${Status} ${Version}' "${d%%=*}" 2>/dev/null || true)
  [[ $have == "install ok installed ${d#*=}" ]] || missing+=("$d")
done
if ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
if ((${#missing[@]})); then
  echo "ecosystem: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

mkdir -p "$dir"
if cmp -s "$here/package-lock.json" "$dir/package-lock.json" && [[ -d $dir/node_modules ]]; then
  echo "ecosystem: npm packages of package-lock.json present in $dir"
else
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "ecosystem: npm packages installed in $dir"
fi
