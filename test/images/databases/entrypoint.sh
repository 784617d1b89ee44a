#!/bin/sh
# The test images' entrypoint: the first argument names the engine; it honours the environment of
# the matching official image (first start initialises the data folder), then runs the server in
# the foreground as PID 1's only child (exec), so SIGTERM stops it cleanly.
set -eu
kind=$1; shift

postgres_like() {
  # initdb, pg_ctl and postgres live beside the versioned binaries; the clients are in /usr/bin.
  PATH=$(echo /usr/lib/postgresql/*/bin):$PATH
  export PGDATA=${PGDATA:-/var/lib/postgresql/data}
  user=${POSTGRES_USER:-postgres}; db=${POSTGRES_DB:-$user}
  mkdir -p "$PGDATA" /var/run/postgresql && chown -R postgres:postgres "$PGDATA" /var/run/postgresql && chmod 700 "$PGDATA"
  as() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > /tmp/pw && chown postgres /tmp/pw
    as initdb -U "$user" --pwfile=/tmp/pw --auth-local=trust --auth-host=scram-sha-256 >/dev/null && rm -f /tmp/pw
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    as pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
    [ "$db" = postgres ] || as psql -q -U "$user" -d postgres -c "CREATE DATABASE \"$db\""
    as pg_ctl -w stop >/dev/null
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -c listen_addresses='*' "$@"
}

mariadb_like() {
  root=${MARIADB_ROOT_PASSWORD:-${MYSQL_ROOT_PASSWORD:-}}
  db=${MARIADB_DATABASE:-${MYSQL_DATABASE:-}}; user=${MARIADB_USER:-${MYSQL_USER:-}}; pass=${MARIADB_PASSWORD:-${MYSQL_PASSWORD:-}}
  mkdir -p /var/lib/mysql /run/mysqld && chown -R mysql:mysql /var/lib/mysql /run/mysqld
  if [ ! -d /var/lib/mysql/mysql ]; then
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db --auth-root-authentication-method=normal >/dev/null
    mariadbd --user=mysql --skip-networking --socket=/run/mysqld/mysqld.sock & pid=$!
    until mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; do sleep 0.2; done
    {
      echo "CREATE USER 'root'@'%' IDENTIFIED BY '$root'; GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
      echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$root';"
      [ -z "$db" ] || echo "CREATE DATABASE \`$db\`;"
      [ -z "$user" ] || echo "CREATE USER '$user'@'%' IDENTIFIED BY '$pass';"
      [ -z "$user" ] || [ -z "$db" ] || echo "GRANT ALL ON \`$db\`.* TO '$user'@'%';"
    } | mariadb -uroot
    kill "$pid" && wait "$pid" || true
  fi
  exec mariadbd --user=mysql --bind-address=0.0.0.0 "$@"
}

redis_like() {
  mkdir -p /data && cd /data
  if [ $# -gt 0 ]; then exec "$@"; fi
  exec redis-server --dir /data --protected-mode no ${REDIS_PASSWORD:+--requirepass "$REDIS_PASSWORD"}
}

case "$kind" in
  dbgamma) postgres_like "$@" ;;
  dbalpha|dbbeta) mariadb_like "$@" ;;
  dbepsilon) redis_like "$@" ;;
  *) echo "unknown engine $kind" >&2; exit 2 ;;
esac
