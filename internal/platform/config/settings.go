package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	envlib "github.com/caarlos0/env/v11"

	"github.com/heraldhq/herald/internal/platform/netguard"
)

// The struct tags of a setting. The library reads env and envDefault; the rest are Herald's:
//
//	env        the variable, named here and nowhere else
//	envDefault the default, as it would be written in the environment
//	desc       one line for `herald config` and docs/configuration.md
//	example    a valid value other than the default (docs, and the test that reads every variable)
//	dflt       how the default reads in the docs when it is computed rather than a fixed value
//	secret     "true": the value is never shown; "url": the password of the URL is masked
//	verbatim   "true": the value is taken as is, blanks around it included (keys whose every
//	           byte counts, such as HERALD_SECRET_KEY); other values are trimmed
//	min, max   bounds of a number, duration or size, written as the setting itself is
//	oneof      the allowed words, space separated
//	format     "url": an absolute http(s) URL
//	expect     how the error message describes a valid value, when the generated words do not fit
const (
	tagEnv     = "env"
	tagDefault = "envDefault"
)

// Setting describes one HERALD_* variable, read from the struct tags of Config.
type Setting struct {
	// Name is the environment variable.
	Name string
	// Default is the default value as written in the environment ("" when none).
	Default string
	// DefaultDoc is how the default reads in the docs: Default, or a phrase for a computed one.
	DefaultDoc string
	// Description says what the setting does.
	Description string
	// Example is a valid value other than the default.
	Example string
	// Secret settings are never shown; MaskURL settings show their URL without its password.
	Secret, MaskURL bool
	// Verbatim settings are read as they are; the others are trimmed of blanks.
	Verbatim bool

	field reflect.StructField
	index []int
}

var (
	settings = collect(reflect.TypeOf(Config{}), nil)
	byField  = func() map[string]*Setting {
		m := map[string]*Setting{}
		for i := range settings {
			m[settings[i].field.Name] = &settings[i]
		}
		return m
	}()
)

// Settings lists every HERALD_* setting in the order of the Config struct.
func Settings() []Setting { return append([]Setting(nil), settings...) }

// collect walks the struct t and its nested config structs for tagged fields.
func collect(t reflect.Type, index []int) []Setting {
	var out []Setting
	for i := range t.NumField() {
		f := t.Field(i)
		idx := append(append([]int(nil), index...), i)
		name := f.Tag.Get(tagEnv)
		if name == "" {
			if f.Type.Kind() == reflect.Struct && f.IsExported() {
				out = append(out, collect(f.Type, idx)...)
			}
			continue
		}
		s := Setting{
			Name: name, Default: f.Tag.Get(tagDefault), Description: f.Tag.Get("desc"),
			Example: f.Tag.Get("example"), Secret: f.Tag.Get("secret") == "true", MaskURL: f.Tag.Get("secret") == "url",
			Verbatim: f.Tag.Get("verbatim") == "true", field: f, index: idx,
		}
		s.DefaultDoc = s.Default
		if d := f.Tag.Get("dflt"); d != "" {
			s.DefaultDoc = d
		}
		out = append(out, s)
	}
	return out
}

// Types with a parser of their own, registered with the library.
type (
	// ByteSize is a number of bytes, written plain (1048576) or with a binary unit (1MiB,
	// 512KiB).
	ByteSize int
	// HostList lists hosts that provider connections may reach although they are internal:
	// host names, addresses, *.suffix patterns, each optionally with :port.
	HostList []string
	// NameList lists host names or *.suffix patterns.
	NameList []string
	// AddrList lists IP addresses or CIDR ranges.
	AddrList []string
	// OriginList lists web origins such as https://console.example.com.
	OriginList []string
	// Plans lists the plans on offer, written as a JSON array.
	Plans []PlanConfig
)

// problems is a parser error that names several bad entries of one list; each is appended
// to the variable's name.
type problems []string

func (p problems) Error() string { return strings.Join(p, "; ") }

// parsers are the parsers of Herald's types, registered with the library.
var parsers = map[reflect.Type]envlib.ParserFunc{
	reflect.TypeOf(time.Duration(0)): func(v string) (any, error) { return parseDuration(v) },
	reflect.TypeOf(ByteSize(0)):      func(v string) (any, error) { return parseBytes(v) },
	reflect.TypeOf(float64(0)): func(v string) (any, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errors.New("not a number")
		}
		return f, nil
	},
	reflect.TypeOf(HostList(nil)): func(v string) (any, error) {
		l, p := splitList(v, ": %s", checkHost)
		return HostList(l), p
	},
	reflect.TypeOf(NameList(nil)): func(v string) (any, error) {
		l, _ := splitList(v, "", nil)
		return NameList(l), nil
	},
	reflect.TypeOf(AddrList(nil)): func(v string) (any, error) {
		l, p := splitList(v, ": %q is neither an IP address nor a CIDR range", checkAddr)
		return AddrList(l), p
	},
	reflect.TypeOf(OriginList(nil)): func(v string) (any, error) {
		l, p := splitList(v, " must list origins such as https://console.example.com, got %q", checkOrigin)
		return OriginList(l), p
	},
	reflect.TypeOf(Plans(nil)): func(v string) (any, error) { return parsePlans(v) },
}

// splitList splits a comma-separated value, trimming entries and dropping blanks; check
// reports a bad entry, worded by format (with the entry, or with check's error when format
// holds %s).
func splitList(v, format string, check func(string) (string, error)) ([]string, error) {
	var out []string
	var bad problems
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if check != nil {
			norm, err := check(s)
			if err != nil {
				if strings.Contains(format, "%s") {
					bad = append(bad, fmt.Sprintf(format, err))
				} else {
					bad = append(bad, fmt.Sprintf(format, s))
				}
				continue
			}
			s = norm
		}
		out = append(out, s)
	}
	if len(bad) > 0 {
		return nil, bad
	}
	return out, nil
}

// parseDuration reads a Go duration, or a whole number of days written as "<n>d".
func parseDuration(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 100*365 {
			return 0, errors.New("not a number of days")
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

// parseBytes reads a number of bytes, plain or with a unit KiB, MiB or GiB (KB, MB and GB
// are read as the same binary units).
func parseBytes(v string) (ByteSize, error) {
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			v, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > math.MaxInt32/mult {
		return 0, errors.New("not a size")
	}
	return ByteSize(n * mult), nil
}

// parseBound reads a min or max tag as a value of the setting's kind, for comparisons.
func parseBound(t reflect.Type, v string) (float64, error) {
	switch t {
	case reflect.TypeOf(time.Duration(0)):
		d, err := parseDuration(v)
		return float64(d), err
	case reflect.TypeOf(ByteSize(0)):
		b, err := parseBytes(v)
		return float64(b), err
	}
	return strconv.ParseFloat(v, 64)
}

// number is the value of a numeric field, or false.
func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

// expect describes a valid value of s, for error messages.
func (s *Setting) expect() string {
	tag := s.field.Tag
	if e := tag.Get("expect"); e != "" {
		return e
	}
	minV, maxV := tag.Get("min"), tag.Get("max")
	switch s.field.Type {
	case reflect.TypeOf(time.Duration(0)):
		switch minV {
		case "", "0s":
			return "a duration such as 500ms or 2s"
		case "1ns":
			return "a positive duration such as 15m or 720h"
		}
		return "a duration of at least " + minV + " such as 2s or 15m"
	case reflect.TypeOf(ByteSize(0)):
		w := "a size in bytes such as 1048576 or 1MiB"
		if maxV != "" {
			return fmt.Sprintf("%s, from %s to %s", w, minV, maxV)
		}
		return w + ", at least " + minV
	}
	switch s.field.Type.Kind() {
	case reflect.Int:
		if maxV != "" {
			return fmt.Sprintf("an integer from %s to %s", minV, maxV)
		}
		return "an integer of at least " + minV
	case reflect.Float64:
		return "a number of at least " + minV
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		if words := strings.Fields(tag.Get("oneof")); len(words) > 0 {
			return orList(words)
		}
		if tag.Get("format") == "url" {
			return "an http(s) URL"
		}
	}
	return "valid"
}

// orList writes a, b or c.
func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// bad reports that s holds raw, which is not what it expects.
// A secret's value is never repeated, a URL's password is masked.
func (s *Setting) bad(p *[]string, raw string) {
	switch {
	case s.Secret:
		*p = append(*p, fmt.Sprintf("%s must be %s", s.Name, s.expect()))
	case s.MaskURL:
		raw = MaskURL(raw)
		fallthrough
	default:
		*p = append(*p, fmt.Sprintf("%s must be %s, got %q", s.Name, s.expect(), raw))
	}
}

// check applies the min, max, oneof and format tags to the loaded value of s.
func (s *Setting) check(v reflect.Value, raw string, p *[]string) {
	tag := s.field.Tag
	if n, ok := number(v); ok {
		lo, hi := tag.Get("min"), tag.Get("max")
		if lo == "" && s.field.Type == reflect.TypeOf(time.Duration(0)) {
			lo = "0s" // no duration is negative
		}
		if lo != "" {
			if b, err := parseBound(s.field.Type, lo); err == nil && n < b {
				s.bad(p, raw)
				return
			}
		}
		if hi != "" {
			if b, err := parseBound(s.field.Type, hi); err == nil && n > b {
				s.bad(p, raw)
			}
		}
		return
	}
	if v.Kind() != reflect.String || v.String() == "" {
		return
	}
	if words := strings.Fields(tag.Get("oneof")); len(words) > 0 {
		for _, w := range words {
			if v.String() == w {
				return
			}
		}
		s.bad(p, raw)
	}
	if tag.Get("format") == "url" {
		if u, err := url.Parse(v.String()); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			s.bad(p, raw)
		}
	}
}

// read loads the settings from environ (variables present and not blank) into c and reports
// every bad value, each naming its variable.
func read(c *Config, environ map[string]string) []string {
	var p []string
	failed := map[string]bool{}
	err := envlib.ParseWithOptions(c, envlib.Options{Environment: environ, FuncMap: parsers})
	var agg envlib.AggregateError
	if errors.As(err, &agg) {
		for _, e := range agg.Errors {
			var pe envlib.ParseError
			s, ok := (*Setting)(nil), false
			if errors.As(e, &pe) {
				s, ok = byField[pe.Name]
			}
			if !ok {
				p = append(p, e.Error())
				continue
			}
			failed[s.Name] = true
			var list problems
			if errors.As(pe.Err, &list) {
				for _, msg := range list {
					p = append(p, s.Name+msg)
				}
				continue
			}
			s.bad(&p, environ[s.Name])
		}
	} else if err != nil {
		p = append(p, err.Error())
	}
	v := reflect.ValueOf(c).Elem()
	for i := range settings {
		s := &settings[i]
		if failed[s.Name] {
			continue
		}
		raw, ok := environ[s.Name]
		if !ok {
			raw = s.Default
		}
		s.check(v.FieldByIndex(s.index), raw, &p)
	}
	return p
}

// checkHost accepts an entry of HERALD_PRIVATE_HOSTS.
func checkHost(s string) (string, error) { return s, netguard.CheckEntry(s) }

// checkAddr accepts an IP address or a CIDR range.
func checkAddr(s string) (string, error) {
	if net.ParseIP(s) == nil {
		if _, _, err := net.ParseCIDR(s); err != nil {
			return "", err
		}
	}
	return s, nil
}

// checkOrigin accepts a web origin, dropping a trailing slash.
func checkOrigin(o string) (string, error) {
	o = strings.TrimRight(o, "/")
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return "", errors.New("not an origin")
	}
	return o, nil
}
