package templates

import (
	"context"
	"encoding/json"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/render"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Limits of translations.
const (
	MaxTranslationEntries = 5000
	MaxTranslationLength  = 10000
)

// localePattern accepts BCP 47 style tags such as "en", "pt-BR", "zh-Hant-TW".
var localePattern = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// Translation is the strings of one locale, used by {{t "key"}} in templates. A
// recipient's profile key `locale` picks one ("pt-BR", else "pt"), else the default.
type Translation struct {
	Locale    string            `json:"locale"`
	Default   bool              `json:"default"`
	Entries   map[string]string `json:"entries"`
	CreatedAt time.Time         `json:"createdAt"`
	UpdatedAt time.Time         `json:"updatedAt"`
}

// TranslationInput creates or replaces a locale's strings.
type TranslationInput struct {
	// Entries is a JSON object of key → string (which may hold {{…}} placeholders).
	Entries json.RawMessage
	// Default makes it the app's fallback translation.
	Default bool
}

// PutTranslation creates or replaces the translation of a locale.
func (s *Service) PutTranslation(ctx context.Context, appID int64, locale string, in TranslationInput) (Translation, error) {
	var p herald.Problems
	entries := checkTranslation(locale, in.Entries, &p)
	if err := p.Err(); err != nil {
		return Translation{}, err
	}
	raw, _ := json.Marshal(entries)
	var row dbsqlc.Translation
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if in.Default {
			if err := q.ClearDefaultTranslation(ctx, dbsqlc.ClearDefaultTranslationParams{AppID: appID, KeepLocale: locale}); err != nil {
				return err
			}
		}
		var err error
		row, err = q.UpsertTranslation(ctx, dbsqlc.UpsertTranslationParams{AppID: appID, Locale: locale, IsDefault: in.Default, Entries: raw})
		return err
	})
	if err != nil {
		return Translation{}, db.MapError(err)
	}
	return translation(row), nil
}

// GetTranslation returns a locale's translation.
func (s *Service) GetTranslation(ctx context.Context, appID int64, locale string) (Translation, error) {
	row, err := s.db.GetTranslation(ctx, dbsqlc.GetTranslationParams{AppID: appID, Locale: locale})
	if err != nil {
		return Translation{}, notFound(err, "translation")
	}
	return translation(row), nil
}

// DefaultTranslation returns the app's default translation.
func (s *Service) DefaultTranslation(ctx context.Context, appID int64) (Translation, error) {
	row, err := s.db.GetDefaultTranslation(ctx, appID)
	if err != nil {
		return Translation{}, notFound(err, "default translation")
	}
	return translation(row), nil
}

// ListTranslations returns a page of the app's translations by locale, and their total.
func (s *Service) ListTranslations(ctx context.Context, appID int64, page, limit int) ([]Translation, int, error) {
	rows, err := s.db.ListTranslations(ctx, dbsqlc.ListTranslationsParams{AppID: appID, MaxRows: int32(limit), SkipRows: int32((page - 1) * limit)})
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	total, err := s.db.CountTranslations(ctx, appID)
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	out := make([]Translation, len(rows))
	for i, r := range rows {
		out[i] = translation(r)
	}
	return out, int(total), nil
}

// DeleteTranslation removes a locale's translation.
func (s *Service) DeleteTranslation(ctx context.Context, appID int64, locale string) error {
	n, err := s.db.DeleteTranslation(ctx, dbsqlc.DeleteTranslationParams{AppID: appID, Locale: locale})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("translation")
	}
	return nil
}

func translation(r dbsqlc.Translation) Translation {
	t := Translation{Locale: r.Locale, Default: r.IsDefault, Entries: map[string]string{}, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	_ = json.Unmarshal(r.Entries, &t.Entries)
	return t
}

// checkTranslation checks a locale and its entries and returns the entries.
func checkTranslation(locale string, raw json.RawMessage, p *herald.Problems) map[string]string {
	if !localePattern.MatchString(locale) {
		p.Addf("locale must be a language tag such as en or pt-BR")
	}
	entries := map[string]string{}
	obj := js.Fields(raw)
	switch {
	case obj == nil:
		p.Addf("entries must be an object of strings")
	case len(obj) > MaxTranslationEntries:
		p.Addf("entries must contain no more than %d keys", MaxTranslationEntries)
	default:
		for _, k := range sortedKeys(obj) {
			v, ok := js.String(obj[k])
			switch {
			case !ok:
				p.Addf("entries.%s must be a string", k)
			case len(v) > MaxTranslationLength:
				p.Addf("entries.%s must be at most %d bytes", k, MaxTranslationLength)
			default:
				if _, err := render.Parse(v); err != nil {
					p.Addf("entries.%s: %v", k, err)
				}
				entries[k] = v
			}
		}
	}
	return entries
}
