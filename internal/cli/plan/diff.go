package plan

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// FileDiff is how one file of the folder differs from the app's version of it.
type FileDiff struct {
	File string `json:"file"`
	// Status is added (only in the folder), removed (only in the app) or changed.
	Status string `json:"status"`
	// Lines are the changed lines, "-" for the app's, "+" for the folder's, with a few
	// lines of context (" ").
	Lines []string `json:"lines"`
}

// Files compares the folder's files with the app's, both rendered from their sets (so
// formatting alone is no difference).
func Files(local, remote map[string][]byte) []FileDiff {
	names := map[string]bool{}
	for n := range local {
		names[n] = true
	}
	for n := range remote {
		names[n] = true
	}
	var out []FileDiff
	for _, n := range slices.Sorted(maps.Keys(names)) {
		l, inL := local[n]
		r, inR := remote[n]
		switch {
		case inL && !inR:
			out = append(out, FileDiff{File: n, Status: "added", Lines: prefix("+", lines(l))})
		case inR && !inL:
			out = append(out, FileDiff{File: n, Status: "removed", Lines: prefix("-", lines(r))})
		case !bytes.Equal(l, r):
			out = append(out, FileDiff{File: n, Status: "changed", Lines: lineDiff(lines(r), lines(l))})
		}
	}
	return out
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func prefix(p string, ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p + l
	}
	return out
}

// lineDiff is a longest-common-subsequence diff of a and b, keeping two lines of
// context around each change ("…" between hunks).
func lineDiff(a, b []string) []string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var all []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			all = append(all, " "+a[i])
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			all = append(all, "-"+a[i])
			i++
		default:
			all = append(all, "+"+b[j])
			j++
		}
	}
	const ctx = 2
	keep := make([]bool, len(all))
	for k, l := range all {
		if l[0] != ' ' {
			for d := max(0, k-ctx); d <= min(len(all)-1, k+ctx); d++ {
				keep[d] = true
			}
		}
	}
	var out []string
	gap := false
	for k, l := range all {
		if !keep[k] {
			gap = true
			continue
		}
		if gap && len(out) > 0 {
			out = append(out, fmt.Sprint("…"))
		}
		gap = false
		out = append(out, l)
	}
	return out
}
