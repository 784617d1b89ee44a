#!/usr/bin/env bash
# berth-test/registry: Debian's docker-registry laid out as the registry's official image is
# (/bin/registry, /etc/docker/registry/config.yml, a shell), for enableSelfHostedRegistry to run.
# Tagged by the hash of this script and of the binaries; `berth-test/registry:current` points at it.
set -euo pipefail
name=berth-test/registry
registry=$(command -v docker-registry)
hash=$( (cat "$0"; cat /bin/busybox "$registry") | sha256sum | cut -c1-16)
if ! docker image inspect "$name:$hash" >/dev/null 2>&1; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root/bin" "$root/etc/docker/registry" "$root/var/lib/registry" "$root/tmp"
  cp /bin/busybox "$root/bin/busybox"
  for tool in sh mkdir printf cat; do ln -s busybox "$root/bin/$tool"; done
  cp "$registry" "$root/bin/registry"
  # Its shared libraries, at the paths its loader looks for them.
  for lib in $(ldd "$registry" | grep -o '/[^ ]*'); do mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; done
  printf 'version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: /var/lib/registry\nhttp:\n  addr: :5000\n' > "$root/etc/docker/registry/config.yml"
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/bin' --change 'EXPOSE 5000' \
    --change 'CMD ["/bin/registry", "serve", "/etc/docker/registry/config.yml"]' \
    - "$name:$hash" >/dev/null
fi
docker tag "$name:$hash" "$name:current"
