# The site's image (docs/deploy.md, "One box with containers"; docs/decisions/0098). Three stages:
# the production dependencies alone, the build (every dependency, `npm run build`), and the image
# that runs, which takes the first's node_modules and the second's build and sources. The base is a
# build argument so that a locally made Node 24 image can stand in for the official one where no
# image registry answers (tests/container/base-image.sh). Debian trixie, whose PostgreSQL client
# programs are 17's, the major of compose.yaml's PostgreSQL (docs/decisions/0098).
ARG NODE_IMAGE=node:24-trixie-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# Production dependencies only: what the image ships in node_modules.
FROM base AS production-dependencies
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# The compiled build (build/: the pages, the client files, the server compiled to build/node/).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build \
 && rm -rf node_modules .react-router

FROM base AS site
# PostgreSQL's client programs, for `npm run backup` and `restore` and the console's backup download
# with DATABASE_URL (core/backup/database.ts: pg_dump must be of the server's major or newer). Named
# by major, so that a base whose Debian has no such package fails here, not at the first backup.
ARG POSTGRES_MAJOR=17
# Fonts for the pictures sharp draws from SVG text (the demo content's, db/demo/images.ts): a slim
# image has none, and the text would come out as empty boxes. `apt-get clean`: a base made by
# mmdebstrap keeps the downloaded packages and apt's caches (about 100 MB) where the official
# image's apt settings would not.
RUN apt-get update \
 && apt-get install --yes --no-install-recommends fontconfig-config fonts-dejavu-core \
      "postgresql-client-${POSTGRES_MAJOR}" \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*
# Read-only code owned by root; the process runs as chalkboard and writes only DATA_DIR.
RUN groupadd --system --gid 10001 chalkboard \
 && useradd --system --uid 10001 --gid chalkboard --create-home --home-dir /home/chalkboard \
      --shell /usr/sbin/nologin chalkboard \
 && mkdir -p /data \
 && chown chalkboard:chalkboard /data
COPY --from=build /app ./
COPY --from=production-dependencies /app/node_modules ./node_modules
# `npm start` builds first when build/ is older than its sources, which it cannot do here (no
# development dependencies): refuse an image whose copy left the build looking stale.
RUN node --input-type=module -e " \
  import { productionBuildState } from './scripts/production-build.ts'; \
  const state = productionBuildState('/app'); \
  if (state !== 'fresh') { console.error('The build in the image is ' + state); process.exit(1); }"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
USER chalkboard
VOLUME ["/data"]
EXPOSE 3000
# Readiness (docs/deploy.md, "Health and readiness"); Node's fetch, as the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=300s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start` without npm in between, so SIGTERM reaches the server (its drain, server/shutdown.ts),
# with its V8 flags: heap limits, WebAssembly on the baseline compiler (docs/decisions/0100).
CMD ["node", "--max-old-space-size=384", "--max-semi-space-size=4", "--liftoff-only", "scripts/start.mjs"]
