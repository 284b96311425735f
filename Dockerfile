# ssa-audit: one image for every role (api, worker, watcher, migrate); the command picks the role.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps apps
COPY libs libs
COPY migrations migrations
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
# Default: all roles in one process (migrates first). Override with: api | worker | watcher | migrate
ENTRYPOINT ["node", "dist/apps/main.js"]
CMD ["all"]
