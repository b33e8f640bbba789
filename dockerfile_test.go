package herald_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	cmd  string // upper case: FROM, RUN, COPY, …
	args string
	line int
}

// stage is the instructions from one FROM to the next.
type stage struct {
	image, name string
	body        []instruction
}

// parseDockerfile reads the instructions of a Dockerfile: comments and blank lines
// skipped, lines ending in a backslash joined with the next. Enough for the checks below;
// no build here (there is no Docker engine), so these checks are what stands for one.
func parseDockerfile(t *testing.T, text string) []stage {
	t.Helper()
	var stages []stage
	var cur strings.Builder
	start := 0
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasPrefix(line, "#") {
			continue // a comment inside a continued instruction
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		cur.Reset()
		in := instruction{cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args), line: start}
		if in.cmd == "FROM" {
			f := strings.Fields(in.args)
			s := stage{image: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("Dockerfile:%d: %s before the first FROM", in.line, in.cmd)
		}
		stages[len(stages)-1].body = append(stages[len(stages)-1].body, in)
	}
	return stages
}

func (s stage) all(cmd string) []instruction {
	var out []instruction
	for _, in := range s.body {
		if in.cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

// execForm decodes a JSON-array argument (CMD ["a","b"]); nil when it is the shell form.
func execForm(args string) []string {
	var argv []string
	if json.Unmarshal([]byte(args), &argv) != nil {
		return nil
	}
	return argv
}

// The image is small, static and non-root, embeds the web apps it serves, and checks its
// own health without a shell.
func TestDockerfile(t *testing.T) {
	raw, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(t, string(raw))
	if len(stages) < 3 {
		t.Fatalf("%d stages, want web, build and the final image", len(stages))
	}
	names := map[string]bool{}
	for i, s := range stages {
		// Every base image is pinned: a version tag or a digest, never latest or none.
		_, tag, hasTag := strings.Cut(s.image[strings.LastIndex(s.image, "/")+1:], ":")
		if !strings.Contains(s.image, "@sha256:") && (!hasTag || tag == "latest") {
			t.Errorf("stage %d: FROM %s is not pinned", i, s.image)
		}
		for _, c := range s.all("COPY") {
			if m := regexp.MustCompile(`--from=(\S+)`).FindStringSubmatch(c.args); m != nil && !names[m[1]] {
				t.Errorf("Dockerfile:%d: COPY --from=%s names no earlier stage", c.line, m[1])
			}
		}
		names[s.name] = true
	}
	final := stages[len(stages)-1]
	if !strings.HasPrefix(final.image, "gcr.io/distroless/static") && !strings.Contains(final.image, "alpine") {
		t.Errorf("final image %s: want distroless static or alpine", final.image)
	}
	users := final.all("USER")
	if len(users) == 0 {
		t.Fatal("the final stage sets no USER: the image would run as root")
	}
	user, _, _ := strings.Cut(users[len(users)-1].args, ":")
	if user == "root" || user == "0" || user == "" {
		t.Errorf("USER %s: want a non-root user", users[len(users)-1].args)
	}
	// The binary is static (distroless static has no libc) and embeds both web apps.
	var build stage
	for _, s := range stages {
		for _, r := range s.all("RUN") {
			if strings.Contains(r.args, "go build") {
				build = s
				if !strings.Contains(r.args, "CGO_ENABLED=0") || !strings.Contains(r.args, "./cmd/herald") {
					t.Errorf("Dockerfile:%d: %s: want CGO_ENABLED=0 go build … ./cmd/herald", r.line, r.args)
				}
			}
		}
	}
	for _, dir := range []string{"web/console/dist/", "web/inbox/dist/widget/"} {
		if !slices.ContainsFunc(build.all("COPY"), func(in instruction) bool {
			return strings.Contains(in.args, "--from=") && strings.HasSuffix(in.args, " "+dir)
		}) {
			t.Errorf("the Go stage does not copy the built %s from the web stage (go:embed serves it)", dir)
		}
	}
	entry := final.all("ENTRYPOINT")
	if len(entry) != 1 || !slices.Equal(execForm(entry[0].args), []string{"/usr/local/bin/herald"}) {
		t.Errorf("ENTRYPOINT %v: want [\"/usr/local/bin/herald\"] (exec form: no shell in the image)", entry)
	}
	if !slices.ContainsFunc(final.all("COPY"), func(in instruction) bool { return strings.HasSuffix(in.args, " /usr/local/bin/herald") }) {
		t.Error("the final stage does not copy the binary to /usr/local/bin/herald")
	}
	hc := final.all("HEALTHCHECK")
	if len(hc) != 1 {
		t.Fatalf("%d HEALTHCHECK instructions in the final stage", len(hc))
	}
	_, cmd, _ := strings.Cut(hc[0].args, "CMD ")
	argv := execForm(strings.TrimSpace(cmd))
	if !slices.Equal(argv, []string{"/usr/local/bin/herald", "healthcheck"}) {
		t.Errorf("HEALTHCHECK %q: want CMD [\"/usr/local/bin/herald\", \"healthcheck\"] (exec form)", hc[0].args)
	}
	main, err := os.ReadFile("cmd/herald/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(main), `args[0] == "healthcheck"`) {
		t.Error("cmd/herald has no healthcheck subcommand for the HEALTHCHECK")
	}
}

// The build context leaves out what must never reach an image layer or would make it stale.
func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile(".dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	for _, want := range []string{".git", ".env", ".data", "bin", "**/node_modules", "web/console/dist"} {
		if !slices.Contains(patterns, want) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
}
