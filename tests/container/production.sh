#!/usr/bin/env bash
# The production setup of compose.yaml, by hand (not a CI stage: it builds three images): the site
# image and local stand-ins for PostgreSQL and MinIO (tests/container/stand-ins/, on the base of
# base-image.sh) in place of the official images, which no registry serves here. Starts the
# `production` profile, waits for the web's health check, then checks that pages answer from
# PostgreSQL, that a demo picture comes out of the bucket, that the worker is healthy (its own
# /readyz) and that `npm run backup` inside the web container dumps PostgreSQL. Everything it
# started is removed at the end whatever happens. Needs Docker and docker compose (or Debian's
# docker-compose).
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { echo "production test: $*"; }
fail() {
  echo "production test FAILED: $*" >&2
  exit 1
}

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null; then
  compose=(docker-compose)
else
  fail "neither docker compose nor docker-compose is installed (apt-get install docker-compose)"
fi
project=chalkboard-production-test-$$
image=${CONTAINER_TEST_IMAGE:-chalkboard-deals:test}
work=$(mktemp -d /tmp/chalkboard-production.XXXXXX)
compose+=(--project-name "$project" --profile production)

base=$(tests/container/base-image.sh) || fail "could not make the base image"
build() { # build TAG CONTEXT: the classic builder takes the local base as it is (run.sh)
  local output
  if ! output=$(DOCKER_BUILDKIT=0 docker build --build-arg "NODE_IMAGE=$base" \
    --build-arg "BASE=$base" --tag "$1" "$2" 2>&1); then
    tail -n 30 <<<"$output" >&2
    fail "docker build of $1 failed; its last lines are above"
  fi
}
say "building the site and the stand-ins on $base…"
build "$image" .
build chalkboard-stand-in/postgres:17 tests/container/stand-ins/postgres
build chalkboard-stand-in/minio:s3rver tests/container/stand-ins/minio

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
  console.log(s.address().port); s.close(); })')
export CHALKBOARD_IMAGE=$image \
  POSTGRES_IMAGE=chalkboard-stand-in/postgres:17 \
  MINIO_IMAGE=chalkboard-stand-in/minio:s3rver \
  MINIO_CLIENT_IMAGE=chalkboard-stand-in/minio:s3rver \
  POSTGRES_PASSWORD="$(node -p 'require("crypto").randomBytes(16).toString("hex")')" \
  S3_ACCESS_KEY_ID=S3RVER S3_SECRET_ACCESS_KEY=S3RVER \
  PUBLISH_ADDRESS=127.0.0.1 PORT=$port WEB_CONCURRENCY=2

cleanup() {
  local status=$?
  "${compose[@]}" down --volumes --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "starting the production profile (project $project)…"
# Up returns once the web is healthy (the worker waits for it) or fails when it is not.
if ! "${compose[@]}" up --detach --no-build >/dev/null 2>&1; then
  "${compose[@]}" ps >&2 || true
  "${compose[@]}" logs --tail 30 web >&2 || true
  fail "the production profile did not come up; its state and the web's last lines are above"
fi
web=$("${compose[@]}" ps -q web)
began=$SECONDS
until [[ $(docker inspect --format '{{.State.Health.Status}}' "$web") == healthy ]]; do
  ((SECONDS - began < 300)) || fail "the web is not healthy after 300 s"
  sleep 2
done
say "the web is healthy"

address=http://127.0.0.1:$port
status=$(curl --silent --output /dev/null --write-out '%{http_code}' "$address/") || true
[[ $status == 200 ]] || fail "the home page answered $status, not 200"
type=$(curl --silent --fail --output /dev/null --write-out '%{content_type}' \
  "$address/media/demo/app-store-badge.png") || fail "a demo picture did not come out of the bucket"
[[ $type == image/png ]] || fail "the demo picture came as $type, not image/png"
worker=$("${compose[@]}" ps -q worker)
began=$SECONDS
until [[ $(docker inspect --format '{{.State.Health.Status}}' "$worker") == healthy ]]; do
  ((SECONDS - began < 120)) ||
    fail "the worker is not healthy after 120 s: $(docker inspect --format '{{json .State.Health}}' "$worker" | head -c 600)"
  sleep 2
done
[[ $(docker inspect --format '{{.State.Status}} {{.RestartCount}}' "$worker") == "running 0" ]] ||
  fail "the worker is not running steadily: $(docker inspect --format '{{.State.Status}}, restarted {{.RestartCount}} times' "$worker")"
say "the worker is healthy"

# A backup as docs/deploy.md says to take one: pg_dump in the web's container, of the server's major.
archive=/tmp/production-test-backup.tar
if ! "${compose[@]}" exec -T web npm run --silent backup -- --out "$archive" >"$work/backup.log" 2>&1; then
  tail -n 10 "$work/backup.log" >&2
  fail "npm run backup failed in the web's container; its last lines are above"
fi
docker cp "$web:$archive" "$work/backup.tar" >/dev/null || fail "docker cp of the backup failed"
tar -xOf "$work/backup.tar" manifest.json >"$work/manifest.json" || fail "the backup has no manifest.json"
summary=$(node -e 'const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(m.engine, m.database.file, m.database.pg_dump_major, m.media.storage, m.counts.posts > 0);' \
  "$work/manifest.json") || fail "the backup's manifest is not JSON"
[[ $summary == "postgres database/postgres.dump 17 s3 true" ]] ||
  fail "the backup is not PostgreSQL 17's dump with the bucket's keys: $summary"
say "backed up in the web's container: $summary"
say "passed: web on PostgreSQL, media from the bucket, the worker healthy, a backup with pg_dump"
