# syntax=docker/dockerfile:1
# Aviary's server image (docs/deploy.md, "Containers"): built in one stage, run from a second one that
# holds only what `aviary` needs at run time, as the unprivileged user `node`. Not built on the machine
# this repository is developed on (it has no container registry); see docs/deploy.md for what was run.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; these build it when none fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY . .
# `npm ci` runs the root `prepare`, which builds the CLI and server (packages/server/dist); `npm run
# build` adds the web client (and the SDK).
RUN npm ci && npm run build

FROM node:20-bookworm-slim AS runtime
# pg_dump and pg_restore, for `aviary backup` and `aviary restore` on PostgreSQL.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    AVIARY_DATA_DIR=/data
# The bundle holds every npm package but better-sqlite3 (a native addon) and what it loads.
COPY --from=build /app/package.json ./
COPY --from=build /app/scripts/build-parts.mjs scripts/
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/bin packages/server/bin
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
COPY --from=build /app/node_modules/better-sqlite3 node_modules/better-sqlite3
COPY --from=build /app/node_modules/bindings node_modules/bindings
COPY --from=build /app/node_modules/file-uri-to-path node_modules/file-uri-to-path
COPY deploy/docker/entrypoint.sh /usr/local/bin/aviary-entrypoint
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers while the process runs (docs/operations.md); /readyz would take a process whose
# database is briefly away out of rotation, which is nginx's and the orchestrator's call, not a restart's.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/local/bin/aviary-entrypoint"]
CMD ["serve"]
