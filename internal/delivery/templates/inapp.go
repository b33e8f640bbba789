package templates

import (
	"context"
	"encoding/json"
	"maps"
	"strings"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// InAppPrefix marks the translation keys that are in-app UI strings: "inapp.markAllAsRead"
// in a locale's translation replaces the built-in "markAllAsRead".
const InAppPrefix = "inapp."

// InAppDefaults are the inbox UI's built-in (English) strings.
var InAppDefaults = map[string]string{
	"title":          "Notifications",
	"empty":          "No notifications yet",
	"all":            "All",
	"unread":         "Unread",
	"markAllAsRead":  "Mark all as read",
	"markAllAsSeen":  "Mark all as seen",
	"markAsRead":     "Mark as read",
	"markAsUnread":   "Mark as unread",
	"delete":         "Delete",
	"deleteAll":      "Delete all",
	"loadMore":       "Load more",
	"preferences":    "Notification preferences",
	"back":           "Back",
	"justNow":        "just now",
	"poweredBy":      "Powered by Herald",
	"channel.inApp":  "In-app",
	"channel.email":  "Email",
	"channel.sms":    "SMS",
	"channel.push":   "Push",
	"error":          "Something went wrong. Try again.",
	"newMessage":     "You have a new notification",
	"newMessages":    "You have {{count}} new notifications",
	"uncategorized":  "Other",
	"preferencesOff": "Off",
	"preferencesOn":  "On",
}

// InAppStrings is the inbox UI's strings for one user.
type InAppStrings struct {
	// Locale is the translation the strings came from ("" when only the built-in ones apply).
	Locale       string            `json:"locale"`
	Translations map[string]string `json:"translations"`
}

// InApp returns the inbox UI strings for a locale: the built-in strings, overridden by the
// app's default translation, then by the locale's language ("pt" for "pt-BR"), then by the
// locale itself — each through its inapp.* keys.
func (s *Service) InApp(ctx context.Context, appID int64, locale string) (InAppStrings, error) {
	wanted := []string{}
	if locale != "" {
		wanted = append(wanted, locale)
		if lang, _, ok := strings.Cut(locale, "-"); ok {
			wanted = append(wanted, lang)
		}
	}
	rows, err := s.db.TranslationsForLocales(ctx, dbsqlc.TranslationsForLocalesParams{AppID: appID, Locales: wanted})
	if err != nil {
		return InAppStrings{}, db.MapError(err)
	}
	out := InAppStrings{Translations: maps.Clone(InAppDefaults)}
	// Least specific first: default, language, exact locale.
	order := []func(dbsqlc.Translation) bool{func(r dbsqlc.Translation) bool { return r.IsDefault }}
	for i := len(wanted) - 1; i >= 0; i-- {
		l := wanted[i]
		order = append(order, func(r dbsqlc.Translation) bool { return strings.EqualFold(r.Locale, l) })
	}
	for _, match := range order {
		for _, r := range rows {
			if !match(r) {
				continue
			}
			entries := map[string]string{}
			_ = json.Unmarshal(r.Entries, &entries)
			for k, v := range entries {
				if key, ok := strings.CutPrefix(k, InAppPrefix); ok && key != "" {
					out.Translations[key] = v
				}
			}
			out.Locale = r.Locale
		}
	}
	return out, nil
}
