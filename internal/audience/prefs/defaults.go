package prefs

import "github.com/heraldhq/herald/internal/audience/categories"

// DefaultEnabled is a category × channel switch the user never set: the app's default for
// the category (its channelDefaults), on when it has none.
func DefaultEnabled(c categories.Category, channel string) bool {
	def, has := c.ChannelDefaults[channel]
	return def || !has
}
