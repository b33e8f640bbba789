package templates

import (
	"encoding/json"
	"fmt"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/delivery/render"
	"github.com/heraldhq/herald/internal/platform/blocks"
)

// BlocksField is the inApp content field holding the notification's blocks: the JSON text
// of an array of blocks (docs/inbox-widget.md#blocks) whose strings are templates, each
// rendered for the recipient (so a value with quotes stays valid JSON).
const BlocksField = "blocks"

// templateOption reads a block string as a template for blocks.Check.
var templateOption = blocks.Options{Template: func(s string) (string, error) {
	t, err := render.Parse(s)
	if err != nil {
		return "", err
	}
	return t.Prefix(), nil
}}

// checkBlocksField validates the blocks field of an inApp content on save: a JSON array,
// each block under the schema, each string a template.
func checkBlocksField(src string, p *herald.Problems) {
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		p.Addf("content.blocks must be the JSON text of an array of blocks (%v)", err)
		return
	}
	if _, ok := v.([]any); !ok {
		p.Addf("content.blocks must be the JSON text of an array of blocks")
		return
	}
	for _, problem := range blocks.Check(json.RawMessage(src), "content.blocks", templateOption) {
		p.Addf("%s", problem)
	}
}

// compiledBlocks is a blocks field parsed once: the JSON tree with a template at each string.
type compiledBlocks struct{ tree any }

// compileBlocks parses a stored blocks field.
func compileBlocks(channel, src string) (*compiledBlocks, error) {
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		return nil, fmt.Errorf("%s.blocks: %w", channel, err)
	}
	var err error
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			t, perr := render.Parse(x)
			if perr != nil && err == nil {
				err = fmt.Errorf("%s.blocks: %w", channel, perr)
			}
			return t
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	tree := walk(v)
	if err != nil {
		return nil, err
	}
	return &compiledBlocks{tree: tree}, nil
}

// render executes every string of the blocks for one recipient and checks the result (a
// link or image URL that the data made unsafe refuses the message, as checkURL does).
func (c *compiledBlocks) render(channel string, data map[string]any, opts render.Options) (json.RawMessage, error) {
	var err error
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case *render.Template:
			out, xerr := x.Execute(data, opts)
			if xerr != nil && err == nil {
				err = fmt.Errorf("%s.blocks: %w", channel, xerr)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i := range x {
				out[i] = walk(x[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = walk(e)
			}
			return out
		}
		return v
	}
	tree := walk(c.tree)
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(tree)
	if problems := blocks.Check(raw, channel+".blocks", blocks.Options{}); len(problems) > 0 {
		return nil, fmt.Errorf("the rendered blocks: %s", strings.Join(problems, "; "))
	}
	return raw, nil
}
