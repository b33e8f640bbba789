// Package web is the request plumbing shared by the v1 and v3 handlers: the error table and
// handler, credential middleware, the caller's principal, and body decoding.
package web

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// statusOf maps each domain error code to its HTTP status: the one table of the API.
var statusOf = map[string]int{
	herald.EINVALID:       fiber.StatusBadRequest,
	herald.EUNAUTHORIZED:  fiber.StatusUnauthorized,
	herald.EFORBIDDEN:     fiber.StatusForbidden,
	herald.ENOTFOUND:      fiber.StatusNotFound,
	herald.ECONFLICT:      fiber.StatusConflict,
	herald.EUNPROCESSABLE: fiber.StatusUnprocessableEntity,
	herald.ETOOLARGE:      fiber.StatusRequestEntityTooLarge,
	herald.ERATELIMIT:     fiber.StatusTooManyRequests,
	herald.EUNAVAILABLE:   fiber.StatusServiceUnavailable,
	herald.EINTERNAL:      fiber.StatusInternalServerError,
}

// ErrorBody is the shape of every error response (docs/decisions.md#errors): message is a list of rules for
// 400 and a string otherwise.
type ErrorBody struct {
	Status    string `json:"status"`
	Message   any    `json:"message"`
	RequestID string `json:"requestId,omitempty"`
	// Problems lists every problem of a value that breaks a declared schema (a 422 for a
	// send whose data does not match its workflow's payload schema).
	Problems []herald.FieldProblem `json:"problems,omitempty"`
}

// ErrorHandler renders every error returned by a handler or middleware. Domain errors map
// through statusOf; Fiber's own errors keep their status; anything else is a 500 whose
// details go only to the log.
func ErrorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		status, body := render(c, err)
		if status >= 500 {
			log.ErrorContext(c.UserContext(), "request failed", "requestId", RequestID(c), "method", c.Method(), "path", c.Path(), "status", status, "error", err)
		}
		var wait interface{ Wait() time.Duration }
		if errors.As(err, &wait) && status == fiber.StatusTooManyRequests {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(math.Ceil(wait.Wait().Seconds()))))
		}
		if status == fiber.StatusTooManyRequests || status == fiber.StatusServiceUnavailable {
			if c.GetRespHeader(fiber.HeaderRetryAfter) == "" {
				c.Set(fiber.HeaderRetryAfter, "1")
			}
		}
		return c.Status(status).JSON(body)
	}
}

func render(c *fiber.Ctx, err error) (int, ErrorBody) {
	var he *herald.Error
	if errors.As(err, &he) {
		status, ok := statusOf[he.Code]
		if !ok {
			status = fiber.StatusInternalServerError
		}
		switch {
		case status >= 500 && he.Code != herald.EUNAVAILABLE:
			return status, ErrorBody{Status: "error", Message: "internal error", RequestID: RequestID(c)}
		case status == fiber.StatusBadRequest:
			details := he.Details
			if len(details) == 0 {
				details = []string{he.Message}
			}
			return status, ErrorBody{Status: "error", Message: details}
		default:
			return status, ErrorBody{Status: "error", Message: he.Message, RequestID: requestIDIf(c, status), Problems: he.Fields}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The request's deadline passed while a dependency was slow to answer.
		return fiber.StatusServiceUnavailable, ErrorBody{Status: "error", Message: "the request timed out waiting for a dependency: try again"}
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch {
		case fe.Code == fiber.StatusBadRequest:
			return fe.Code, ErrorBody{Status: "error", Message: []string{fe.Message}}
		case fe.Code >= 500:
			return fe.Code, ErrorBody{Status: "error", Message: "internal error", RequestID: RequestID(c)}
		case fe.Code == fiber.StatusRequestEntityTooLarge:
			return fe.Code, ErrorBody{Status: "error", Message: "request body too large"}
		case fe.Code == fiber.StatusNotFound:
			return fe.Code, ErrorBody{Status: "error", Message: "no route for " + c.Method() + " " + c.Path()}
		}
		return fe.Code, ErrorBody{Status: "error", Message: fe.Message}
	}
	return fiber.StatusInternalServerError, ErrorBody{Status: "error", Message: "internal error", RequestID: RequestID(c)}
}

func requestIDIf(c *fiber.Ctx, status int) string {
	if status >= 500 {
		return RequestID(c)
	}
	return ""
}
