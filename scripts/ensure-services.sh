#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis that the integration suites use, when they are installed
# here but not running. Does nothing when they already answer.
set -u

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! answers 5432 && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi
if ! answers 6379 && command -v redis-server >/dev/null 2>&1; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /tmp --logfile /tmp/petstore-ci-redis.log || true
fi
for _ in $(seq 1 50); do
  answers 5432 && answers 6379 && exit 0
  sleep 0.2
done
echo "PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) is not answering; their suites will fail" >&2
exit 0
