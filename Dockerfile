# Herald: one image for `herald api`, `herald worker` and `herald migrate`.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/herald ./cmd/herald

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/herald /usr/local/bin/herald
ENV HERALD_HTTP_ADDR=0.0.0.0:8080 HERALD_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/herald"]
CMD ["api"]
