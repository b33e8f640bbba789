package templates

import (
	"context"

	herald "github.com/heraldhq/herald"
)

// DefaultStarter is the starter layout an app gets as its default when none is set.
const DefaultStarter = "card"

// EnsureDefaultLayout gives the app a default email layout made from the DefaultStarter
// starter unless it has one; created tells which happened.
func (s *Service) EnsureDefaultLayout(ctx context.Context, appID int64) (Layout, bool, error) {
	l, err := s.DefaultLayout(ctx, appID)
	if err == nil {
		return l, false, nil
	}
	if herald.ErrorCode(err) != herald.ENOTFOUND {
		return Layout{}, false, err
	}
	var starter EmailLayout
	for _, st := range StarterLayouts {
		if st.Identifier == DefaultStarter {
			starter = st
		}
	}
	yes := true
	l, err = s.CreateLayout(ctx, appID, LayoutInput{
		Identifier: "herald-default", Name: starter.Name, HTML: starter.HTML, Text: starter.Text, Default: &yes,
	})
	if err != nil {
		return Layout{}, false, err
	}
	return l, true, nil
}
