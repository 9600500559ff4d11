# The Pet Store API. Node.js 24 runs the TypeScript sources directly (type stripping); the image also
# holds the build's output (scripts/build.ts, docs/architecture.md): the contracts as JSON, the
# dependency bundle and the typed client the docs page serves.
#   docker build -t petstore .
#   docker run --rm -p 8080:8080 -v petstore-data:/data petstore
# With PostgreSQL and Redis: DATABASE_URL=postgres://… REDIS_URL=redis://… (see compose.yaml and
# docs/operations.md).

FROM node:24.21.0-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/json/package.json packages/json/
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
# Runtime dependencies only: the image's own Node.js replaces the `node` dev dependency that pins it
# for development, at the same version (test/node-version.test.ts: the HTTP edge relies on how that
# version's HTTP server closes connections, http/node-behaviour.ts).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# The build (scripts/build.ts: the contracts as JSON, the dependency bundle and the typed client the
# docs page serves) needs esbuild, TypeScript and yaml, which are development dependencies: it runs
# here, with every dependency, and only its output goes into the image. Built on top of the runtime
# install, so it is newer than npm's record of that install, which the dependency bundle is checked
# against.
FROM dependencies AS build
WORKDIR /build
COPY package.json package-lock.json ./
COPY packages/json/package.json packages/json/
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY openapi/petstore.yaml openapi/manage.yaml openapi/
COPY packages/json/src packages/json/src
COPY packages/contract/src packages/contract/src
COPY packages/client/README.md packages/client/
COPY packages/client/src packages/client/src
COPY packages/server/src packages/server/src
COPY packages/cli/src packages/cli/src
COPY scripts/build.ts scripts/build-client.ts scripts/build-dependencies.ts scripts/emit-contracts.ts scripts/tar.ts scripts/
RUN node scripts/build.ts

FROM node:24.21.0-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=/data/petstore.db
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY packages/json/package.json packages/json/
COPY packages/json/src packages/json/src
COPY packages/contract/package.json packages/contract/
COPY packages/contract/src packages/contract/src
COPY packages/client/package.json packages/client/README.md packages/client/
COPY packages/client/src packages/client/src
COPY packages/server/package.json packages/server/
COPY packages/server/src packages/server/src
COPY packages/cli/package.json packages/cli/
COPY packages/cli/bin packages/cli/bin
COPY packages/cli/src packages/cli/src
# The build's output: the packages a start imports, in a few files instead of hundreds; the contracts the
# server reads (no YAML is in the image); the typed client's browser module and npm package
# (/docs/assets/). COPY keeps the files' times, so the bundle stays newer than the install and the
# client's files than their sources; the image is not made if anything would be refused as stale.
COPY --from=build /build/packages/cli/dist packages/cli/dist
COPY --from=build /build/packages/server/dist packages/server/dist
COPY --from=build /build/packages/contract/dist packages/contract/dist
COPY scripts/check-build.ts scripts/
RUN node scripts/check-build.ts
# The embedded SQLite database lives in a volume owned by the unprivileged user.
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness only; orchestrators should use GET /readyz for readiness (see docs/operations.md).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests and closes the database (at most 10 s): give it longer than that.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "packages/cli/bin/petstore.js", "serve"]
