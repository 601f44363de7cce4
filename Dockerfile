# syntax=docker/dockerfile:1
# bizapi: the API server (default command) and, with another command, the worker or any CLI command.
# Runs the compiled JavaScript (dist/, `npm run build`) on the current Node LTS, with production
# dependencies only (no tsx, no compiler). See docs/deployment.md. scripts/verify-image.sh runs the same
# steps without Docker (CI does).
ARG NODE_IMAGE=node:26-slim

# 1. Build: all dependencies (TypeScript), then `npm run build` → sdk/dist/ (the @bizapi/client workspace, which
#    bizapi mcp and bizapi import use; its dist/ is committed too, built again here from sdk/src) and dist/.
#    The @bizapi/mcp workspace (bizapi mcp, the remote endpoint /mcp) is used as committed: its bundle, its
#    declarations (which the server's build reads) and its OpenAPI document (mcp/test/build.test.ts keeps them current).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json ./sdk/
COPY mcp/package.json ./mcp/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY sdk/tsconfig.json sdk/tsconfig.build.json ./sdk/
COPY sdk/src ./sdk/src
COPY mcp/dist ./mcp/dist
RUN npm run build

# 2. Production dependencies. --ignore-scripts: the SQLite driver for Node 22.14+ (better-sqlite3 13,
#    alias better-sqlite3-napi) ships prebuilt Node-API binaries inside its npm package (no download, no
#    compiler); better-sqlite3 12 (for Node 20 only) stays unbuilt and is never loaded here, so NODE_IMAGE
#    must be Node 22.14 or newer. No other package of the production tree needs an install script.
#    The SQLite database defaults to the volume (DATABASE_URL below; compose sets PostgreSQL).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json ./sdk/
COPY mcp/package.json ./mcp/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. Runtime.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    BIZAPI_DATA_DIR=/var/lib/bizapi \
    DATABASE_URL=sqlite:/var/lib/bizapi/bizapi.db
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY sdk/package.json ./sdk/
COPY --from=build /app/sdk/dist ./sdk/dist
COPY mcp/package.json mcp/openapi.json ./mcp/
COPY mcp/dist ./mcp/dist
RUN mkdir -p /var/lib/bizapi && chown node:node /var/lib/bizapi
USER node
VOLUME ["/var/lib/bizapi"]
EXPOSE 8000
# SIGTERM starts the graceful shutdown (of every worker process); give the container more than
# BIZAPI_SHUTDOWN_TIMEOUT to stop.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=30", "dist/cli/main.js", "serve"]
