# syntax=docker/dockerfile:1
# Herald: one image for `herald api`, `herald worker`, `herald migrate` and `herald doctor`
# (docker-compose.yml and the Helm chart in deploy/helm/herald run it). Three stages: Node
# builds the console and the inbox widget, Go builds one static binary that embeds both, and
# the final image is that binary on distroless static, as a non-root user, with no shell.
#
#   docker build -t herald .
#
# The base images are pinned by version tag; pin them by digest too in your own build
# (FROM image:tag@sha256:…) for reproducible images. Size: docs/deployment.md.

# 1. The console web app (web/console/dist) and the inbox widget (web/inbox/dist/widget),
#    both embedded by go:embed in stage 2.
# Node 24 is the active LTS (Node 20 reached its end of life in April 2026; CI builds the web apps with the machine's Node).
FROM node:24-bookworm-slim AS web
WORKDIR /web
COPY web/console/package.json web/console/package-lock.json console/
COPY web/inbox/package.json web/inbox/package-lock.json inbox/
RUN cd console && npm ci --no-audit --no-fund --loglevel=error \
 && cd ../inbox && npm ci --no-audit --no-fund --loglevel=error
COPY web/console/ console/
COPY web/inbox/ inbox/
RUN cd console && npm run build && cd ../inbox && node build.mjs

# 2. bin/herald: static (no cgo), without the build paths and symbols (-trimpath -s -w).
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
COPY sdk/go/go.mod sdk/go/
RUN go mod download
COPY . .
COPY --from=web /web/console/dist/ web/console/dist/
COPY --from=web /web/inbox/dist/widget/ web/inbox/dist/widget/
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/herald ./cmd/herald \
 && /out/herald help >/dev/null \
 && mkdir -p /out/data

# 3. The image: distroless static (CA certificates, tzdata, /etc/passwd with nonroot) and the
#    binary. User 65532 (nonroot); the Helm chart runs it with a read-only root filesystem.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/herald /usr/local/bin/herald
# HERALD_DATA_DIR: uploaded console files when no S3 bucket is set; mount a volume here.
COPY --from=build --chown=65532:65532 /out/data /var/lib/herald
USER 65532:65532
ENV HERALD_HTTP_ADDR=0.0.0.0:8080 HERALD_LOG_FORMAT=json HERALD_DATA_DIR=/var/lib/herald
EXPOSE 8080
# No shell or curl here: herald healthcheck GETs /livez on the API listener, else on the
# metrics listener (which a worker opens too); a migrate or doctor container exits first.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/herald", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/herald"]
CMD ["api"]
