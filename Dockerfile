# syntax=docker/dockerfile:1
# Ivory: the console and its server in one image.
#   docker build -t ivory .
#   docker run -p 4000:4000 -v ivory-data:/data ivory                         (embedded platform)
#   docker run -p 4000:4000 -e IVORY_PACHD_ADDRESS=http://pachd:1650 ivory   (cluster mode)

# ---- build: every dependency, then the web bundle ------------------------------------------
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/api/package.json packages/api/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY perf/package.json perf/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- deps: the server's production dependencies only (tsx included: it runs the TypeScript) -
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/api/package.json packages/api/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY perf/package.json perf/
RUN npm ci --omit=dev --no-audit --no-fund --workspace=server --include-workspace-root=false \
 && mkdir -p server/node_modules

# ---- runtime ----------------------------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    IVORY_DATA_DIR=/data \
    IVORY_WEB_DIST=/app/web/dist \
    IVORY_SEED=false
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
COPY --chown=node:node packages/api ./packages/api
COPY --chown=node:node server/package.json ./server/package.json
COPY --from=deps --chown=node:node /app/server/node_modules ./server/node_modules
COPY --chown=node:node server/src ./server/src
COPY --from=build --chown=node:node /app/web/dist ./web/dist
# bubblewrap: the sandbox pipeline code runs in (see the README's Sandbox section).
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 4000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "server/src/main.ts"]
