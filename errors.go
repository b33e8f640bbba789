// Package herald holds the domain vocabulary shared by every layer: error codes and the
// error type that carries them from the store up to the HTTP edge, where one table maps
// codes to statuses.
package herald

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes. Each code maps to exactly one HTTP status in web.statusOf (api/web/errors.go).
const (
	EINVALID       = "invalid"       // the request broke one or more rules (400)
	EUNAUTHORIZED  = "unauthorized"  // credentials missing or wrong (401)
	EFORBIDDEN     = "forbidden"     // authenticated but not allowed (403)
	ENOTFOUND      = "not_found"     // no such resource for this caller (404)
	ECONFLICT      = "conflict"      // the resource already exists or changed (409)
	EUNPROCESSABLE = "unprocessable" // well-formed but cannot be applied, e.g. idempotency key reuse (422)
	ETOOLARGE      = "too_large"     // body or collection over a limit (413)
	ERATELIMIT     = "rate_limited"  // too many requests (429)
	EUNAVAILABLE   = "unavailable"   // a dependency is down; retry later (503)
	EINTERNAL      = "internal"      // a bug or an unexpected failure (500)
)

// Error is a domain error: a code for the edge to map, a message safe to show the caller,
// and for EINVALID the list of every violated rule.
type Error struct {
	Code    string
	Message string
	// Details lists one message per violated rule (EINVALID only).
	Details []string
	// Fields lists, for an EUNPROCESSABLE value that breaks a declared schema (a send's data
	// against its workflow's payload schema), every problem with its place in the body.
	Fields []FieldProblem
	// Err is the underlying cause, logged but never shown to the caller.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	msg := e.Message
	if len(e.Details) > 0 {
		msg += ": " + strings.Join(e.Details, "; ")
	}
	for i, f := range e.Fields {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		msg += sep + f.Pointer + " " + f.Message
	}
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, msg, e.Err)
	}
	return e.Code + ": " + msg
}

// FieldProblem is one problem of a value at a place in a request body.
type FieldProblem struct {
	// Pointer is the JSON pointer (RFC 6901) of the value in the request body, such as
	// "/data/order/id".
	Pointer string `json:"pointer"`
	// Message says what is wrong with it.
	Message string `json:"message"`
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid builds an EINVALID error listing every violated rule.
func Invalid(details ...string) *Error {
	return &Error{Code: EINVALID, Message: "validation failed", Details: details}
}

// NotFound builds an ENOTFOUND error naming what was not found.
func NotFound(what string) *Error {
	return &Error{Code: ENOTFOUND, Message: what + " not found"}
}

// ErrorCode returns the code of the first *Error in err's chain, or EINTERNAL.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// Problems collects violated rules while validating, so a caller sees all of them at once.
type Problems []string

// Addf records one violated rule.
func (p *Problems) Addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// Err returns an EINVALID error listing the problems, or nil when there are none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return Invalid(p...)
}
