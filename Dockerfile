# Herald: one image for `herald api`, `herald worker` and `herald migrate`.

# The console web app, embedded into the binary by the Go build below.
FROM node:20-bookworm-slim AS console
WORKDIR /console
COPY web/console/package.json web/console/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/console/ ./
RUN npx vite build

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=console /console/dist/ web/console/dist/
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/herald ./cmd/herald

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/herald /usr/local/bin/herald
ENV HERALD_HTTP_ADDR=0.0.0.0:8080 HERALD_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/herald"]
CMD ["api"]
