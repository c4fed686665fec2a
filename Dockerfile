FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 (the embedded store) builds from source where no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# web/ is a workspace of its own (its React is not the test runner's): its package.json comes with the lock.
COPY package.json package-lock.json ./
COPY web/package.json ./web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY schema ./schema
COPY src ./src
COPY scripts ./scripts
COPY web ./web
# The server and the web app (dist/web); the web app's packages are build-time only and pruned with the rest.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/schema ./schema
USER node
EXPOSE 3000
# 8 MB semi-spaces and Node's code on 2 MB pages: fewer cache and TLB misses per request; an old
# generation allowed to double, no more, between full collections: a steady resident set; no
# pretenuring by allocation site, which sent some processes' request objects to the old generation
# (docs/performance.md).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=100", "--no-allocation-site-pretenuring", "--use-largepages=silent", "dist/src/server.js"]
