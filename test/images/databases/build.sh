#!/usr/bin/env bash
# Builds the database test images (no image can be pulled here): one Debian minbase tree with
# PostgreSQL, MariaDB and Redis from Debian's packages, imported once, then one image per engine:
# that layer plus the entrypoint, which starts the engine as its official image does.
# The tree's tarball is cached under BERTH_IMAGE_CACHE, keyed by the package list; the images are
# tagged by the content hash of this folder and the build is skipped when they are present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${BERTH_IMAGE_CACHE:-/var/cache/berth-test-images}
packages=postgresql,mariadb-server,mariadb-client,redis-server
hash=$(cat "$here/build.sh" "$here/entrypoint.sh" | sha256sum | cut -c1-16)
kinds=(dbgamma dbalpha dbbeta dbepsilon)
missing=0
for kind in "${kinds[@]}"; do docker image inspect "berth-test/$kind:$hash" >/dev/null 2>&1 || missing=1; done
if [ "$missing" = 0 ]; then
  for kind in "${kinds[@]}"; do docker tag "berth-test/$kind:$hash" "berth-test/$kind:current"; done
  exit 0
fi
tarball="$cache/databases-$(printf 'bookworm %s' "$packages" | sha256sum | cut -c1-16).tar"
if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
  mkdir -p "$cache"
  tree=$(mktemp -d "$cache/tree.XXXXXX")
  trap 'rm -rf "$tree"' EXIT
  # The Debian mirror this machine's apt already uses (deb822 sources, else the one-line format).
  mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian$/ { print $2; exit }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
  debootstrap --variant=minbase --include="$packages" bookworm "$tree" "$mirror" >/dev/null
  # No docs, caches, logs or data folders of the packages' own (each engine initialises its own).
  rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/* "$tree"/usr/share/doc/* "$tree"/usr/share/man/* \
    "$tree"/usr/share/locale/* "$tree"/usr/share/info/* "$tree"/var/log/*.log "$tree"/var/lib/postgresql/* "$tree"/var/lib/mysql/*
  tar -C "$tree" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi
docker image inspect "berth-test/databases:base" >/dev/null 2>&1 && [ "$(docker image inspect -f '{{index .Config.Labels "tarball"}}' berth-test/databases:base 2>/dev/null)" = "$(basename "$tarball")" ] \
  || docker import --change "LABEL tarball=$(basename "$tarball")" "$tarball" berth-test/databases:base >/dev/null
holder=$(docker create berth-test/databases:base /bin/true)
trap 'docker rm -f "$holder" >/dev/null 2>&1 || true' EXIT
docker cp "$here/entrypoint.sh" "$holder:/usr/local/bin/berth-entrypoint"
for kind in "${kinds[@]}"; do
  docker commit --change "ENTRYPOINT [\"/usr/local/bin/berth-entrypoint\", \"$kind\"]" --change 'CMD []' \
    "$holder" "berth-test/$kind:$hash" >/dev/null
  docker tag "berth-test/$kind:$hash" "berth-test/$kind:current"
done
