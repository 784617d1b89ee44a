#!/usr/bin/env bash
# Builds the database test images (no image can be pulled here): one Debian minbase tree with
# PostgreSQL, MariaDB and Redis from Debian's packages, imported once per engine with its
# entrypoint. Tagged by the content hash of this folder and skipped when present; the tarball is
# cached under BERTH_IMAGE_CACHE so a pruned image is re-imported in seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${BERTH_IMAGE_CACHE:-/var/cache/berth-test-images}
hash=$(cat "$here/build.sh" "$here/entrypoint.sh" | sha256sum | cut -c1-16)
kinds=(dbgamma dbalpha dbbeta dbepsilon)
missing=0
for kind in "${kinds[@]}"; do docker image inspect "berth-test/$kind:$hash" >/dev/null 2>&1 || missing=1; done
if [ "$missing" = 0 ]; then
  for kind in "${kinds[@]}"; do docker tag "berth-test/$kind:$hash" "berth-test/$kind:current"; done
  exit 0
fi
tarball="$cache/databases-$hash.tar"
if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
  mkdir -p "$cache"
  tree=$(mktemp -d "$cache/tree.XXXXXX")
  trap 'rm -rf "$tree"' EXIT
  debootstrap --variant=minbase --include=postgresql,mariadb-server,mariadb-client,redis-server \
    bookworm "$tree" http://deb.debian.org/debian >/dev/null
  # Services must not start inside the build, and the image needs no docs, caches or locales.
  rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/* "$tree"/usr/share/doc/* "$tree"/usr/share/man/* \
    "$tree"/usr/share/locale/* "$tree"/var/lib/postgresql/* "$tree"/var/lib/mysql/*
  install -m 0755 "$here/entrypoint.sh" "$tree/usr/local/bin/berth-entrypoint"
  tar -C "$tree" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi
pgbin=$(tar -tf "$tarball" | grep -m1 -oE '^\./usr/lib/postgresql/[0-9]+/bin/' | sed 's/^\.//')
path="PATH=$pgbin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for kind in "${kinds[@]}"; do
  docker import --change "ENV $path" --change "ENTRYPOINT [\"/usr/local/bin/berth-entrypoint\", \"$kind\"]" \
    "$tarball" "berth-test/$kind:$hash" >/dev/null
  docker tag "berth-test/$kind:$hash" "berth-test/$kind:current"
done
