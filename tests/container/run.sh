#!/usr/bin/env bash
# The container image, end to end (docs/decisions/0098): builds ./Dockerfile on a Node 24 base made
# here from Debian's packages and the npm registry (base-image.sh), starts it on a named volume,
# waits for the image's own readiness check, signs in as the demo member and posts a deal through
# the JSON API with a Bearer session; takes a backup inside the running container (`npm run backup`
# through `docker exec`) and checks the archive; then removes the container and starts a new one on
# the same volume, where the deal and the session must still be. Containers and the volume are removed at
# the end whatever happens; the base image is kept for the next run.
#
# Installs Debian's docker.io, mmdebstrap and curl when missing and starts dockerd when no daemon answers
# (needs root then). Exits non-zero, with one line saying why, on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

run_id=chalkboard-test-$$
image=${CONTAINER_TEST_IMAGE:-chalkboard-deals:test}
volume=$run_id-data
work=$(mktemp -d /tmp/chalkboard-container.XXXXXX)
ready_timeout_s=${CONTAINER_READY_TIMEOUT_S:-300}
email=demo@example.com
password='Chalkboard#2026' # the demo accounts' password (db/demo/README.md)

say() { echo "container test: $*"; }
fail() {
  echo "container test FAILED: $*" >&2
  exit 1
}

containers=()
cleanup() {
  local status=$?
  for container in "${containers[@]}"; do docker rm -f "$container" >/dev/null 2>&1 || true; done
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Docker, mmdebstrap and a daemon ---------------------------------------------------------------
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
  say "installing ${missing[*]} from Debian's packages…"
  apt-get update -qq || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
    fail "apt-get install ${missing[*]} failed"
fi
if ! docker info >/dev/null 2>&1; then
  dockerd_log=${TMPDIR:-/tmp}/chalkboard-dockerd.log
  say "no Docker daemon answers: starting dockerd (log: $dockerd_log)…"
  dockerd >"$dockerd_log" 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || fail "dockerd did not answer within 60 s; see $dockerd_log"
fi

# --- The images ------------------------------------------------------------------------------------
base=$(tests/container/base-image.sh) || fail "could not make the base image"
say "building $image on $base…"
# The classic builder: it takes FROM images from the local store as they are, never asking a
# registry, and Debian's docker.io has no buildx.
if ! DOCKER_BUILDKIT=0 docker build --build-arg "NODE_IMAGE=$base" --tag "$image" . \
  >"$work/build.log" 2>&1; then
  tail -n 30 "$work/build.log" >&2
  fail "docker build failed; its last lines are above"
fi

# --- Helpers ---------------------------------------------------------------------------------------
json() { # json FILE EXPRESSION: a value of the JSON answer in FILE (`it` is the parsed answer)
  node -e 'const it = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const value = eval(process.argv[2]); if (value === undefined) process.exit(1);
    console.log(typeof value === "string" ? value : JSON.stringify(value));' "$1" "$2"
}

start_site() { # start_site NAME: a container of the image on the volume, published on a free port
  local name=$1
  containers+=("$name")
  docker run --detach --init --name "$name" --volume "$volume:/data" \
    --publish 127.0.0.1::3000 "$image" >/dev/null || fail "docker run $name failed"
}

wait_ready() { # wait_ready NAME: until the image's HEALTHCHECK (readiness) says healthy
  local name=$1 began=$SECONDS state
  while :; do
    state=$(docker inspect --format '{{.State.Status}} {{.State.Health.Status}}' "$name") ||
      fail "cannot inspect $name"
    [[ $state == "running healthy" ]] && break
    if [[ $state != running* ]] || ((SECONDS - began > ready_timeout_s)); then
      docker logs --tail 40 "$name" >&2 || true
      fail "$name is not ready after $((SECONDS - began)) s ($state); its last lines are above"
    fi
    sleep 2
  done
  say "$name is ready after $((SECONDS - began)) s"
  address=http://$(docker port "$name" 3000/tcp | head -n1)
}

call() { # call NAME METHOD PATH [curl arguments…]: the answer in $work/NAME.json, its status echoed
  local name=$1 method=$2 path=$3
  shift 3
  curl --silent --show-error --max-time 30 --output "$work/$name.json" --write-out '%{http_code}' \
    --request "$method" "$@" "$address$path" || fail "$method $path did not answer"
}

expect_status() { # expect_status NAME WANTED GOT
  [[ $3 == "$2" ]] || fail "$1 answered $3, not $2: $(head -c 400 "$work/$1.json")"
}

# --- First container: sign in, post a deal ---------------------------------------------------------
docker volume create "$volume" >/dev/null || fail "docker volume create $volume failed"
start_site "$run_id-first"
wait_ready "$run_id-first"

status=$(call signin POST /api/signin --header 'Content-Type: application/json' \
  --data "{\"email\":\"$email\",\"password\":\"$password\"}")
expect_status signin 200 "$status"
token=$(json "$work/signin.json" 'it.response.token') || fail "the sign-in answer holds no token"
auth=(--header "Authorization: Bearer $token")

status=$(call options GET /api/submit_deal)
expect_status options 200 "$status"
deal_category=$(json "$work/options.json" 'it.response.forum_category_deal[0].id') &&
  store=$(json "$work/options.json" 'it.response.store[0].id') &&
  category=$(json "$work/options.json" 'it.response.category[0].id') ||
  fail "GET /api/submit_deal offers no deal category, store or category"

title="Container test laminator $run_id"
# --form-string: curl's --form would read a value that starts with "<" from a file.
status=$(call deal POST /api/save_deal "${auth[@]}" \
  --form-string "deal_category=$deal_category" --form-string "store_id=$store" \
  --form-string "category_id=$category" --form-string "title=$title" \
  --form-string 'deal_description=<p>Posted by the container test.</p>' \
  --form-string price=19.99 --form-string discount=20)
expect_status deal 200 "$status"
unique_id=$(json "$work/deal.json" 'it.response.unique_id') || fail "the deal's answer has no unique_id"
slug=$(json "$work/deal.json" 'it.response.slug') || fail "the deal's answer has no slug"
say "signed in as $email and posted deal $unique_id"

# --- A backup inside the running container ---------------------------------------------------------
# `npm run backup` as an operator runs it with `docker exec`: the server owns the embedded database,
# so the command asks it for the archive (scripts/backup.ts). The archive must hold the deal just
# posted: the PGlite image stores a short title as plain bytes in its table's file.
archive=/tmp/$run_id-backup.tar
if ! docker exec "$run_id-first" npm run --silent backup -- --out "$archive" >"$work/backup.log" 2>&1; then
  tail -n 10 "$work/backup.log" >&2
  fail "npm run backup failed inside the container; its last lines are above"
fi
grep --quiet 'asking the server' "$work/backup.log" ||
  fail "npm run backup did not ask the running server: $(head -c 400 "$work/backup.log")"
docker cp "$run_id-first:$archive" "$work/backup.tar" >/dev/null || fail "docker cp of the backup failed"
tar -xf "$work/backup.tar" -C "$work" manifest.json database/pglite.tar.gz ||
  fail "the backup holds no manifest.json or database/pglite.tar.gz"
[[ $(tar -tf "$work/backup.tar" | head -n1) == manifest.json ]] || fail "the backup's first file is not manifest.json"
[[ $(json "$work/manifest.json" 'it.engine + " " + it.database.sha256') == \
  "pglite $(sha256sum "$work/database/pglite.tar.gz" | cut -d' ' -f1)" ]] ||
  fail "the backup's manifest does not describe its embedded database: $(head -c 400 "$work/manifest.json")"
json "$work/manifest.json" 'it.counts.posts > 0 && it.counts.sessions > 0 && it.media.files > 0 || undefined' \
  >/dev/null || fail "the backup counts no posts, sessions or media files: $(head -c 400 "$work/manifest.json")"
# Into a file first: with pipefail, grep leaving the pipe at its first match would fail the gzip.
gzip -dc "$work/database/pglite.tar.gz" >"$work/database/pglite.tar" ||
  fail "the backup's database image is not gzip"
grep --quiet --text --fixed-strings "$title" "$work/database/pglite.tar" ||
  fail "the backup's database does not hold the deal $unique_id"
say "backed up inside the container: $(json "$work/manifest.json" 'JSON.stringify(it.counts)'), the deal among them"

# --- Second container on the same volume: the deal and the session are still there ----------------
docker stop --time 30 "$run_id-first" >/dev/null || fail "docker stop failed"
docker rm "$run_id-first" >/dev/null || fail "docker rm failed"
start_site "$run_id-second"
wait_ready "$run_id-second"

status=$(call details POST /api/product_details --header 'Content-Type: application/json' \
  --data "{\"user_id\":\"\",\"unique_id\":\"$unique_id\",\"slug\":\"$slug\",\"type\":\"d\"}")
expect_status details 200 "$status"
grep --quiet --fixed-strings "$title" "$work/details.json" ||
  fail "the deal $unique_id is there but its title is not: $(head -c 400 "$work/details.json")"

# The call needs a session (401 without one), so a 200 with the token says the session survived.
status=$(call anonymous POST /api/notifications --header 'Content-Type: application/json' --data '{"page":1}')
expect_status anonymous 401 "$status"
status=$(call session POST /api/notifications "${auth[@]}" \
  --header 'Content-Type: application/json' --data '{"page":1}')
expect_status session 200 "$status"

say "passed: the deal and the session outlived their container"
