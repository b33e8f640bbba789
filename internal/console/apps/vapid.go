package apps

import (
	"context"
	"fmt"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/webpush"
)

// VAPIDKeys returns the app's web push key pair, generating it on first use: browsers
// subscribe with the public key (/sdk/connect shows it) and pushes are signed with the
// private one, which is kept sealed.
func (s *Service) VAPIDKeys(ctx context.Context, appID int64) (*providers.VAPIDKeys, error) {
	for attempt := 0; attempt < 2; attempt++ {
		row, err := s.db.GetAppByID(ctx, appID)
		if err != nil {
			return nil, db.MapError(err)
		}
		if row.VapidPublicKey != nil && len(row.VapidPrivateKeySealed) > 0 {
			priv, err := s.box.Open(row.VapidPrivateKeySealed)
			if err != nil {
				return nil, fmt.Errorf("app %d VAPID key: %w", appID, err)
			}
			return &providers.VAPIDKeys{PublicKey: *row.VapidPublicKey, PrivateKey: string(priv)}, nil
		}
		keys, err := webpush.GenerateVAPIDKeys("")
		if err != nil {
			return nil, err
		}
		if err := s.db.SetAppVAPIDKeys(ctx, dbsqlc.SetAppVAPIDKeysParams{
			ID: appID, PublicKey: &keys.PublicKey, PrivateKeySealed: s.box.Seal([]byte(keys.PrivateKey)),
		}); err != nil {
			return nil, db.MapError(err)
		}
		s.forget(appID)
	}
	return nil, fmt.Errorf("app %d: VAPID keys were not stored", appID)
}
