#!/bin/sh
# The official postgres image's first start, in short: a cluster owned by POSTGRES_USER with
# POSTGRES_PASSWORD, the database POSTGRES_DB, password sign-in from the network.
set -e
data=/var/lib/postgresql/data
if [ ! -s "$data/PG_VERSION" ]; then
  install -d -o postgres -g postgres -m 700 "$data"
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password && chown postgres /tmp/password
  su postgres -s /bin/sh -c "initdb -D $data -U $POSTGRES_USER --pwfile=/tmp/password --auth-local=trust --auth-host=scram-sha-256" >/dev/null
  rm /tmp/password
  echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
  su postgres -s /bin/sh -c "pg_ctl -D $data -o '-c listen_addresses=' -w start" >/dev/null
  su postgres -s /bin/sh -c "createdb -U $POSTGRES_USER $POSTGRES_DB"
  su postgres -s /bin/sh -c "pg_ctl -D $data -w stop" >/dev/null
fi
exec su postgres -s /bin/sh -c "exec postgres -D $data -c listen_addresses='*'"
