// Package fanout sends one push message to each of a recipient's device tokens and folds
// the outcomes into the one Result or Error the pipeline expects for the recipient.
package fanout

import (
	"context"
	"errors"
	"fmt"

	"github.com/heraldhq/herald/internal/providers"
)

// Send calls send for every token, in order. When at least one token took the message the
// outcome is a Result: a retry would send the others twice, so failures on the remaining
// tokens are only summarised, and gone tokens are listed in GoneTokens. When none did, the
// outcome is an error: Gone when every token is gone, else the first transient error (so
// the activity retries), else the first permanent error that is not Gone (the pipeline
// removes every token of a Gone error).
func Send(ctx context.Context, tokens []string, send func(ctx context.Context, token string) (string, error)) (providers.Result, error) {
	if len(tokens) == 0 {
		return providers.Result{}, providers.Permanent("no push token")
	}
	var (
		ids                   []string
		gone                  []string
		firstTransient, first error
		firstPermanent        error
		failed                int
	)
	for _, token := range tokens {
		id, err := send(ctx, token)
		if err == nil {
			ids = append(ids, id)
			continue
		}
		failed++
		if first == nil {
			first = err
		}
		var pe *providers.Error
		isProvider := errors.As(err, &pe)
		switch {
		case isProvider && pe.Gone:
			gone = append(gone, token)
		case !isProvider || !pe.Permanent:
			if firstTransient == nil {
				firstTransient = err
			}
		case firstPermanent == nil:
			firstPermanent = err
		}
	}
	if len(ids) > 0 {
		res := providers.Result{ProviderMessageID: ids[0], GoneTokens: gone}
		res.Response = fmt.Sprintf("delivered to %d of %d devices", len(ids), len(tokens))
		if failed > 0 {
			res.Response += fmt.Sprintf(" (%d gone; first failure: %v)", len(gone), first)
		}
		return res, nil
	}
	switch {
	case len(gone) == len(tokens):
		return providers.Result{}, first
	case firstTransient != nil:
		return providers.Result{}, firstTransient
	default:
		// Not Gone: some tokens are still registered and must not be removed.
		return providers.Result{}, firstPermanent
	}
}
