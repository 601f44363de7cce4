# syntax=docker/dockerfile:1
# bizapi: the API server (default command) and, with another command, the worker or any CLI command.
# No build step: bin/bizapi runs the TypeScript sources through tsx. See docs/deployment.md.

# Dependencies, with a compiler at hand for native modules that have no prebuilt binary.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    BIZAPI_DATA_DIR=/var/lib/bizapi
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
RUN mkdir -p /var/lib/bizapi && chown node:node /var/lib/bizapi
USER node
VOLUME ["/var/lib/bizapi"]
EXPOSE 8000
# SIGTERM starts the graceful shutdown; give the container more than BIZAPI_SHUTDOWN_TIMEOUT to stop.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/bizapi", "serve"]
