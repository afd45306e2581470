# syntax=docker/dockerfile:1
# The webhook-gateway image. Its install steps are the ones test/e2e/install-from-packs.test.ts
# runs on the host: `npm pack` every public package, then `npm install` of the tarballs into a
# fresh project, the way a user installs from npm. The Redis store is a separate install:
#   docker build --build-arg EXTRA_PACKAGES=store-redis .   (docker-compose.yml does this)

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build this repository and pack its public packages into /packs.
FROM ${NODE_IMAGE} AS packs
WORKDIR /src
COPY package.json package-lock.json .npmrc tsconfig.base.json tsconfig.json turbo.json ./
COPY packages ./packages
COPY test/package.json ./test/package.json
# `npm ci` builds every package (the root `prepare` runs turbo); then one tarball per package.
RUN rm -rf packages/*/dist packages/*/.turbo \
  && npm ci --no-audit --no-fund \
  && mkdir /packs \
  && npm pack --pack-destination /packs $(for dir in packages/*/; do printf './%s ' "$dir"; done)

# 2. Install the tarballs into a fresh project, as a user does (compilers for better-sqlite3,
#    should no prebuilt binary fit).
FROM ${NODE_IMAGE} AS install
ARG EXTRA_PACKAGES=""
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY --from=packs /packs /packs
WORKDIR /opt/webhook-gateway
RUN npm init -y >/dev/null \
  && tarballs=$(ls /packs/*.tgz | grep -v '/webhook-gateway-store-redis-') \
  && for extra in $EXTRA_PACKAGES; do tarballs="$tarballs $(ls /packs/webhook-gateway-$extra-*.tgz)"; done \
  && npm install --no-audit --no-fund $tarballs \
  && npm cache clean --force

# 3. The image: Node, the installed project, Debian's gh and git (forge_comment, a reviewing
#    agent), and an unprivileged user.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends gh git ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system gateway \
  && useradd --system --gid gateway --home-dir /var/lib/webhook-gateway --create-home gateway
COPY --from=install /opt/webhook-gateway /opt/webhook-gateway
ENV PATH=/opt/webhook-gateway/node_modules/.bin:$PATH \
  WEBHOOK_GATEWAY_HOME=/var/lib/webhook-gateway \
  NODE_ENV=production
USER gateway
WORKDIR /var/lib/webhook-gateway
VOLUME ["/var/lib/webhook-gateway"]
EXPOSE 8644
# A worker (--role worker) opens no port: compose turns this check off for it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || 8644) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["tini", "--", "webhook-gateway"]
CMD ["gateway"]
