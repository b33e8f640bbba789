package files

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// KeyLines maps the paths of a JSON document's members and elements ("name",
// "definition.steps[2].template") to the 1-based line where each starts, so problems can
// name a line. A document that does not parse gives what was read before the error.
func KeyLines(data []byte) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineAt := func(off int64) int {
		// Skip separators to the start of the next token.
		for off < int64(len(data)) {
			switch data[off] {
			case ' ', '\t', '\r', '\n', ',', ':':
				off++
				continue
			}
			break
		}
		return bytes.Count(data[:min(off, int64(len(data)))], []byte("\n")) + 1
	}
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		switch d {
		case '{':
			for dec.More() {
				start := dec.InputOffset()
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key := fmt.Sprint(k)
				p := key
				if path != "" {
					p = path + "." + key
				}
				out[p] = lineAt(start)
				if err := walk(p); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				p := path + "[" + strconv.Itoa(i) + "]"
				out[p] = lineAt(dec.InputOffset())
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	_ = walk("")
	return out
}

// LineOf returns the line of path in lines, or of its nearest enclosing member that has
// one ("steps[2].template" falls back to "steps[2]", then "steps"); 1 when none.
func LineOf(lines map[string]int, path string) int {
	for path != "" {
		if l, ok := lines[path]; ok {
			return l
		}
		cut := -1
		for i := len(path) - 1; i >= 0; i-- {
			if path[i] == '.' || path[i] == '[' {
				cut = i
				break
			}
		}
		if cut < 0 {
			break
		}
		path = path[:cut]
	}
	return 1
}

// SyntaxLine returns the line of a JSON syntax or type error in data, 0 when err has no
// offset.
func SyntaxLine(data []byte, err error) int {
	var off int64
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	default:
		return 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
