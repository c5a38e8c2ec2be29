# syntax=docker/dockerfile:1
# Hookgate images, one Dockerfile with a target per image (build context: the repository root):
#   docker build --target gateway    -t ghcr.io/hookgate/gateway:0.1.0 .     # hookgate (CLI + gateway)
#   docker build --target controller -t ghcr.io/hookgate/controller:0.1.0 .  # reconciliation controller
#   docker build --target plugins    -t ghcr.io/hookgate/plugins:0.1.0 .     # the four built-in plugins
# Each image holds the production layout only (built dist/ and assets plus `npm ci --omit=dev`: no
# TypeScript, no tsx, no sources), runs as uid/gid 65532 and writes nothing outside its mounted
# volumes, so it runs with a read-only root filesystem. test/e2e/production-layout.test.ts installs
# and runs the same layout (tools/dev/src/production-layout.ts) without Docker.

ARG NODE_BUILD_IMAGE=node:20-bookworm-slim
ARG NODE_RUNTIME_IMAGE=gcr.io/distroless/nodejs20-debian12:nonroot

# Build every app and library once, then write one layout per image.
FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund \
 && npm run build \
 && npm run layout -w @hookgate/devtools -- /layout/gateway @hookgate/cli \
 && npm run layout -w @hookgate/devtools -- /layout/controller @hookgate/controller \
 && npm run layout -w @hookgate/devtools -- /layout/plugins \
      @hookgate/plugin-pod-defaults @hookgate/plugin-required-labels \
      @hookgate/plugin-immutable-fields @hookgate/plugin-ledger

# Production dependencies of each layout (the distroless runtime has no npm: they are installed here
# and copied). --ignore-scripts: no runtime dependency needs an install script (prebuilt binaries).
FROM ${NODE_BUILD_IMAGE} AS gateway-deps
WORKDIR /app
COPY --from=build /layout/gateway/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace @hookgate/cli

FROM ${NODE_BUILD_IMAGE} AS controller-deps
WORKDIR /app
COPY --from=build /layout/controller/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace @hookgate/controller

FROM ${NODE_BUILD_IMAGE} AS plugins-deps
WORKDIR /app
COPY --from=build /layout/plugins/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      --workspace @hookgate/plugin-pod-defaults --workspace @hookgate/plugin-required-labels \
      --workspace @hookgate/plugin-immutable-fields --workspace @hookgate/plugin-ledger

# The gateway: `hookgate serve`. Mount the configuration read-only at /etc/hookgate, a writable
# state directory (TLS CA and certificates, registrations, spool) at /var/lib/hookgate and the
# plugin sockets' directory at /run/hookgate. The files are root's: the process cannot change them.
FROM ${NODE_RUNTIME_IMAGE} AS gateway
WORKDIR /app
COPY --from=gateway-deps --chown=0:0 /app ./
ENV NODE_ENV=production
USER 65532:65532
ENTRYPOINT ["/nodejs/bin/node", "/app/apps/cli/bin/hookgate.mjs"]
CMD ["serve", "--config", "/etc/hookgate", "--state-dir", "/var/lib/hookgate"]

# The controller: its configuration mounted read-only at /etc/hookgate/controller.yaml.
FROM ${NODE_RUNTIME_IMAGE} AS controller
WORKDIR /app
COPY --from=controller-deps --chown=0:0 /app ./
ENV NODE_ENV=production
USER 65532:65532
ENTRYPOINT ["/nodejs/bin/node", "/app/apps/controller/dist/main.js"]
CMD ["--config", "/etc/hookgate/controller.yaml"]

# The built-in plugins, one image: the container's args choose the plugin (without args, the
# pod-defaults usage is printed), e.g.
#   args: [/app/apps/plugins/pod-defaults/dist/main.js, --config, /etc/hookgate/pod-defaults.yaml,
#          --listen, unix:///run/hookgate/pod-defaults.sock]
FROM ${NODE_RUNTIME_IMAGE} AS plugins
WORKDIR /app
COPY --from=plugins-deps --chown=0:0 /app ./
ENV NODE_ENV=production
USER 65532:65532
ENTRYPOINT ["/nodejs/bin/node"]
CMD ["/app/apps/plugins/pod-defaults/dist/main.js"]
