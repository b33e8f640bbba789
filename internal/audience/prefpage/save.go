package prefpage

import (
	"context"
	"encoding/json"
)

// Save applies the form posted from page p (as Open returned it for the link) to its user
// and returns how many switches changed.
// form holds the last value of each field: "1" on, "0" off (the page sends a hidden "0"
// before each checkbox, so a switch that was shown is always sent). Only the switches the
// page shows for this user count: a field the page did not show (another app's category,
// an unknown channel or workflow) and a locked (critical) switch are ignored, and a switch
// left as it was is not written, so an untouched app default stays a default. The writes
// go through prefs.Service: the same checks and tables as PUT /v3/preferences.
func (s *Service) Save(ctx context.Context, p Page, form map[string]string) (int, error) {
	app := p.app
	changed := func(sw Switch) (bool, bool) {
		v, given := form[sw.Field]
		if !given || sw.Locked || (v != "0" && v != "1") {
			return false, false
		}
		on := v == "1"
		return on, on != sw.On
	}
	type chanSwitch struct {
		Channel string `json:"channel"`
		Enabled bool   `json:"enabled"`
	}
	type catItem struct {
		CategoryID int64        `json:"categoryId"`
		Channels   []chanSwitch `json:"channels"`
	}
	n := 0
	var items []catItem
	for _, c := range p.Categories {
		item := catItem{CategoryID: c.ID}
		for _, sw := range c.Switches {
			if on, ok := changed(sw); ok {
				item.Channels = append(item.Channels, chanSwitch{sw.Channel, on})
			}
		}
		if len(item.Channels) > 0 {
			items = append(items, item)
			n += len(item.Channels)
		}
	}
	if len(items) > 0 {
		body, _ := json.Marshal(map[string]any{"preference": items})
		if err := s.Prefs.Update(ctx, app, p.User, body); err != nil {
			return 0, err
		}
	}
	chans := map[string]bool{}
	for _, sw := range p.Channels {
		if on, ok := changed(sw); ok {
			chans[sw.Channel] = on
		}
	}
	if len(chans) > 0 {
		body, _ := json.Marshal(chans)
		if _, err := s.Prefs.SetChannels(ctx, app, p.User, body); err != nil {
			return 0, err
		}
		n += len(chans)
	}
	type flowItem struct {
		Identifier string          `json:"identifier"`
		Enabled    *bool           `json:"enabled,omitempty"`
		Channels   map[string]bool `json:"channels,omitempty"`
	}
	var flows []flowItem
	for _, f := range p.Flows {
		item, k := flowItem{Identifier: f.flow}, 0
		if on, ok := changed(f.Switch); ok {
			item.Enabled, k = &on, k+1
		}
		for _, sw := range f.Channels {
			if on, ok := changed(sw); ok {
				if item.Channels == nil {
					item.Channels = map[string]bool{}
				}
				item.Channels[sw.Channel], k = on, k+1
			}
		}
		if k > 0 {
			flows = append(flows, item)
			n += k
		}
	}
	if len(flows) > 0 {
		body, _ := json.Marshal(map[string]any{"workflows": flows})
		if err := s.Prefs.SetFlows(ctx, app, p.User, body); err != nil {
			return 0, err
		}
	}
	return n, nil
}
