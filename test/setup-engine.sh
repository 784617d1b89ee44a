#!/usr/bin/env bash
# The container engine the tests drive: Debian's docker.io, running, in swarm mode, and the test
# images built locally (nothing can be pulled here), each cached under a tag of its content's hash.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
# The test image copies /bin/busybox into an empty root: it must be the static build.
ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' || missing+=(busybox-static)
command -v docker-registry >/dev/null 2>&1 || missing+=(docker-registry)
command -v git >/dev/null 2>&1 || missing+=(git)
# The ssh git transport test runs its own throwaway sshd (no system service is started for it).
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
# The compose tool for container-compose services (Debian's docker-compose; the engine's plugin does too).
command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 || missing+=(docker-compose)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  # No init system to ask on a fresh CI machine: run the daemon detached, then wait for its socket.
  setsid dockerd >/var/log/berth-dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start; see /var/log/berth-dockerd.log" >&2; exit 1; }
fi
if [ "$(docker info --format '{{.Swarm.LocalNodeState}}')" != "active" ]; then
  docker swarm init --advertise-addr 127.0.0.1 >/dev/null
fi

bash "$here/images/httpd.sh"
bash "$here/images/registry.sh"
