package send

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/safeurl"
)

// maxLinkProblems caps the refused links of blocks reported in one answer.
const maxLinkProblems = 20

// isLinkKey reports whether a key of a block names a link: "url", "href", "link" or a name
// ending in one of them ("imageUrl", "action_url", "deepLink"), in any case. Blocks are
// free-form, but whoever renders them follows these as links.
func isLinkKey(key string) bool {
	k := strings.ToLower(key)
	return strings.HasSuffix(k, "url") || strings.HasSuffix(k, "href") || strings.HasSuffix(k, "link")
}

// checkBlockLinks refuses, in notification.blocks, every string under a link key (at any
// depth) that safeurl refuses, naming its path (notification.blocks[0].action.url).
func checkBlockLinks(raw json.RawMessage, p *herald.Problems) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	n := 0
	var walk func(path string, v any, link bool)
	walk = func(path string, v any, link bool) {
		switch x := v.(type) {
		case string:
			if !link || n >= maxLinkProblems {
				return
			}
			if err := safeurl.Check(x); err != nil {
				n++
				p.Addf("%s %v", path, err)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e, false)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(path+"."+k, x[k], isLinkKey(k))
			}
		}
	}
	walk("notification.blocks", v, false)
}
