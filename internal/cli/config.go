package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Profile is one server and the CLI token used on it.
type Profile struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// configFile is the CLI's settings: a profile per name.
type configFile struct {
	Profiles map[string]Profile `json:"profiles"`
}

// configPath is where profiles are kept: HERALD_CONFIG, else herald/credentials.json
// under the user's configuration folder ($XDG_CONFIG_HOME or ~/.config on Linux).
func (e *Env) configPath() (string, error) {
	if p := e.Getenv("HERALD_CONFIG"); p != "" {
		return p, nil
	}
	dir := e.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := e.Getenv("HOME")
		if home == "" {
			d, err := os.UserConfigDir()
			if err != nil {
				return "", fmt.Errorf("no configuration folder: set HERALD_CONFIG to a file path (%w)", err)
			}
			dir = d
		} else {
			dir = filepath.Join(home, ".config")
		}
	}
	return filepath.Join(dir, "herald", "credentials.json"), nil
}

func (e *Env) loadConfig() (configFile, string, error) {
	path, err := e.configPath()
	if err != nil {
		return configFile{}, "", err
	}
	cfg := configFile{Profiles: map[string]Profile{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, path, nil
	}
	if err != nil {
		return cfg, path, err
	}
	if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(e.Stderr, "warning: %s is readable by other users (mode %o): run chmod 600 %s\n", path, st.Mode().Perm(), path)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return cfg, path, fmt.Errorf("%s is not valid JSON (%v): fix or delete it and run herald login again", path, err)
	}
	if cfg.Profiles == nil {
		cfg.Profiles = map[string]Profile{}
	}
	return cfg, path, nil
}

// saveConfig writes the profiles readable by their owner only (0600, in a 0700 folder).
func saveConfig(path string, cfg configFile) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// profile returns the server and token a command uses: the profile's, with HERALD_URL
// and HERALD_TOKEN taking precedence.
func (e *Env) profile(name string) (Profile, error) {
	cfg, path, err := e.loadConfig()
	if err != nil {
		return Profile{}, err
	}
	p := cfg.Profiles[name]
	if v := e.Getenv("HERALD_URL"); v != "" {
		p.URL = v
	}
	if v := e.Getenv("HERALD_TOKEN"); v != "" {
		p.Token = v
	}
	switch {
	case p.URL == "" && p.Token == "":
		return p, fmt.Errorf("not logged in (profile %q in %s): run herald login --url URL, or set HERALD_URL and HERALD_TOKEN", name, path)
	case p.URL == "":
		return p, fmt.Errorf("no server URL for profile %q: run herald login --url URL, or set HERALD_URL", name)
	case p.Token == "":
		return p, fmt.Errorf("no CLI token for profile %q: run herald login, or set HERALD_TOKEN", name)
	}
	return p, nil
}
