#!/usr/bin/env bash
# berth-test/httpd: a static busybox serving /www on :8080, from a `docker import` of a tiny rootfs.
# As PID 1 busybox httpd ignores SIGTERM (every rolling update would wait the 10 s grace period),
# so a shell that exits on TERM runs it. Tagged by the hash of this script and of the busybox binary;
# `berth-test/httpd:current` points at the image of this content.
set -euo pipefail
name=berth-test/httpd
hash=$( (cat "$0"; cat /bin/busybox) | sha256sum | cut -c1-16)
if ! docker image inspect "$name:$hash" >/dev/null 2>&1; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root/bin" "$root/www" "$root/tmp"
  cp /bin/busybox "$root/bin/busybox"
  for tool in sh httpd echo cat sleep ls wget; do ln -s busybox "$root/bin/$tool"; done
  echo 'berth-test httpd' > "$root/www/index.html"
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/bin' --change 'EXPOSE 8080' --change 'WORKDIR /www' \
    --change 'CMD ["/bin/sh", "-c", "trap \"exit 0\" TERM; httpd -f -p 8080 -h /www & wait"]' \
    - "$name:$hash" >/dev/null
fi
docker tag "$name:$hash" "$name:current"
