// Package compose checks the repository's docker-compose.yml with the Compose
// specification's own Go library (github.com/compose-spec/compose-go): health checks and
// dependencies that wait for them, secrets without defaults, ports on loopback, and the
// README's compose commands and ports. It is a module of its own so that the library's
// dependencies stay out of Herald's go.mod; `make test-compose` runs it (and `make test`).
package compose
