# syntax=docker/dockerfile:1
# ssa-audit: one image for every role (api, worker, watcher, migrate); the command picks the role.
# Node 24 (LTS) on Debian slim. The runtime writes nothing to its filesystem when DATABASE_URL is
# set (logs go to stdout), so it runs with a read-only root filesystem; deploy/ mounts an emptyDir
# at /tmp all the same. Only the embedded mode (no DATABASE_URL, `all`) writes, to /app/data.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps apps
COPY libs libs
COPY migrations migrations
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -f dist/.tsbuildinfo*

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only for the service's user: the code cannot be changed at run time.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The embedded database's directory (DATA_DIR=./data), the only place the image's user may write.
RUN mkdir /app/data && chown 1000:1000 /app/data
# Numeric (the image's `node` user), so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3000 9464
# apps/main.ts stops on SIGTERM within 25 s and exits 0. Exec form below: node is PID 1 and gets the signal.
STOPSIGNAL SIGTERM
# Default: all roles in one process (migrates first). Override with: api | worker | watcher | migrate
ENTRYPOINT ["node", "dist/apps/main.js"]
CMD ["all"]
