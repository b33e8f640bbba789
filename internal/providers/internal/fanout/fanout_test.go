package fanout

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/providers"
)

func TestFolding(t *testing.T) {
	gone := &providers.Error{Permanent: true, Gone: true, Message: "unregistered"}
	permanent := &providers.Error{Permanent: true, Message: "bad"}
	transient := &providers.Error{Message: "busy"}
	outcomes := func(m map[string]error) func(context.Context, string) (string, error) {
		return func(_ context.Context, token string) (string, error) {
			if err := m[token]; err != nil {
				return "", err
			}
			return "id-" + token, nil
		}
	}
	res, err := Send(context.Background(), []string{"a", "b", "c"}, outcomes(map[string]error{"a": gone, "c": transient}))
	if err != nil || res.ProviderMessageID != "id-b" || len(res.GoneTokens) != 1 || res.GoneTokens[0] != "a" ||
		!strings.HasPrefix(res.Response, "delivered to 1 of 3 devices (1 gone") {
		t.Errorf("partial: %+v %v", res, err)
	}
	_, err = Send(context.Background(), []string{"a", "b"}, outcomes(map[string]error{"a": gone, "b": gone}))
	if !errors.Is(err, gone) {
		t.Errorf("all gone: %v", err)
	}
	_, err = Send(context.Background(), []string{"a", "b", "c"}, outcomes(map[string]error{"a": gone, "b": permanent, "c": transient}))
	if !errors.Is(err, transient) {
		t.Errorf("transient wins for a retry: %v", err)
	}
	_, err = Send(context.Background(), []string{"a", "b"}, outcomes(map[string]error{"a": gone, "b": permanent}))
	if !errors.Is(err, permanent) {
		t.Errorf("a permanent error that is not Gone, since b is still registered: %v", err)
	}
	if _, err = Send(context.Background(), nil, outcomes(nil)); !providers.IsPermanent(err) {
		t.Errorf("no tokens: %v", err)
	}
}
