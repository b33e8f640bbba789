package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/cli/api"
	"github.com/heraldhq/herald/internal/cli/check"
	"github.com/heraldhq/herald/internal/cli/files"
	"github.com/heraldhq/herald/internal/cli/plan"
)

// tokenWhere says where the console makes CLI tokens: the Team page's "CLI tokens"
// section (the console's own words, so a user can follow them).
const tokenWhere = "create one in the console under Team → CLI tokens"

func (r *runner) login(args []string) error {
	fs := r.flags("login", false)
	url := fs.String("url", r.env.Getenv("HERALD_URL"), "the server's address, e.g. https://herald.example.com")
	token := fs.String("token", "", "the CLI token (hcli_…); read from standard input when not given")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	cfg, path, err := r.env.loadConfig()
	if err != nil {
		return err
	}
	p := cfg.Profiles[r.profile]
	if *url != "" {
		p.URL = strings.TrimRight(*url, "/")
	}
	if p.URL == "" {
		return fmt.Errorf("%w: login: --url is required the first time (the address of your Herald server)", ErrUsage)
	}
	tok := *token
	if tok == "" {
		tok = r.env.Getenv("HERALD_TOKEN")
	}
	if tok == "" && r.env.ReadSecret != nil {
		// Typed at a terminal: not echoed, not left in the shell's history.
		fmt.Fprint(r.env.Stderr, "CLI token ("+tokenWhere+"): ")
		line, err := r.env.ReadSecret()
		fmt.Fprintln(r.env.Stderr)
		if err != nil {
			return err
		}
		tok = strings.TrimSpace(line)
	} else if tok == "" {
		line, err := bufio.NewReader(r.env.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return errors.New("no token given: pass --token, set HERALD_TOKEN or give it on standard input")
		}
		tok = strings.TrimSpace(line)
	}
	if !strings.HasPrefix(tok, "hcli_") {
		return errors.New("that is not a CLI token: CLI tokens start with hcli_ (" + tokenWhere + ")")
	}
	c := api.New(p.URL, tok)
	me, err := c.Me(r.ctx)
	if err != nil {
		return fmt.Errorf("the server refused the token: %w", err)
	}
	p.Token = tok
	cfg.Profiles[r.profile] = p
	if err := saveConfig(path, cfg); err != nil {
		return err
	}
	if r.json {
		return r.printJSON(map[string]any{"profile": r.profile, "url": p.URL, "email": me.Email, "config": path})
	}
	r.out("Logged in to %s as %s (profile %s, saved in %s).", p.URL, me.Email, r.profile, path)
	return nil
}

func (r *runner) logout(args []string) error {
	fs := r.flags("logout", false)
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	cfg, path, err := r.env.loadConfig()
	if err != nil {
		return err
	}
	if _, ok := cfg.Profiles[r.profile]; !ok {
		r.out("Profile %s was not logged in.", r.profile)
		return nil
	}
	delete(cfg.Profiles, r.profile)
	if err := saveConfig(path, cfg); err != nil {
		return err
	}
	r.out("Logged out of profile %s (the token still works until it is revoked in the console).", r.profile)
	return nil
}

func (r *runner) whoami(args []string) error {
	fs := r.flags("whoami", false)
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	me, err := c.Me(r.ctx)
	if err != nil {
		return err
	}
	clients, err := c.Clients(r.ctx)
	if err != nil {
		return err
	}
	if r.json {
		return r.printJSON(map[string]any{"url": c.BaseURL, "email": me.Email, "clients": clients})
	}
	r.out("%s on %s", r.paint(bold, me.Email), c.BaseURL)
	for _, cl := range clients {
		r.out("client %s (id %d), role %s", cl.Name, cl.ID, cl.Role)
	}
	return nil
}

func (r *runner) apps(args []string) error {
	fs := r.flags("apps", false)
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	clients, err := c.Clients(r.ctx)
	if err != nil {
		return err
	}
	var all []api.App
	for _, cl := range clients {
		list, err := c.Apps(r.ctx, cl.ID)
		if err != nil {
			return err
		}
		all = append(all, list...)
	}
	if r.json {
		if all == nil {
			all = []api.App{}
		}
		return r.printJSON(all)
	}
	rows := make([][]string, len(all))
	for i, a := range all {
		rows[i] = []string{strconv.FormatInt(a.ID, 10), a.Name}
	}
	r.table([]string{"ID", "NAME"}, rows)
	return nil
}

// schema returns the JSON Schema of workflow files, built from the OpenAPI document.
func (r *runner) schema() []byte {
	b, err := WorkflowSchema(r.env.OpenAPI)
	if err != nil {
		r.note("warning: no workflow schema written: %v", err)
		return nil
	}
	return b
}

func (r *runner) pull(args []string) error {
	fs := r.flags("pull", true)
	pos, err := r.parse(fs, args, 1)
	if err != nil {
		return err
	}
	dir := dirArg(pos)
	c, err := r.client()
	if err != nil {
		return err
	}
	remote, err := plan.Fetch(r.ctx, c, r.app)
	if err != nil {
		return err
	}
	written, removed, err := writeFolder(dir, files.Render(remote.Set, r.schema()))
	if err != nil {
		return err
	}
	s := remote.Set
	summary := map[string]any{"dir": dir, "templates": len(s.Templates), "layouts": len(s.Layouts), "translations": len(s.Translations),
		"categories": len(s.Categories), "workflows": len(s.Workflows), "filesWritten": written, "filesRemoved": removed}
	if r.json {
		return r.printJSON(summary)
	}
	r.out("Pulled app %d into %s: %d templates, %d layouts, %d translations, %d categories, %d workflows (%d files; %d removed).",
		r.app, dir, len(s.Templates), len(s.Layouts), len(s.Translations), len(s.Categories), len(s.Workflows), written, removed)
	return nil
}

// writeFolder writes rendered files into dir and removes the .json and .hbs files of the
// managed folders that the app no longer has; other files (a README) stay.
func writeFolder(dir string, out map[string][]byte) (written, removed int, err error) {
	for _, top := range files.Managed {
		root := filepath.Join(dir, top)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			ext := filepath.Ext(p)
			if _, keep := out[rel]; !keep && (ext == ".json" || ext == ".hbs") {
				removed++
				return os.Remove(p)
			}
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
	}
	for rel, b := range out {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, 0, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return 0, 0, err
		}
		written++
	}
	// Folders emptied by removals go too.
	for _, top := range []string{"templates", "layouts", "translations", "workflows"} {
		entries, _ := os.ReadDir(filepath.Join(dir, top))
		for _, e := range entries {
			if e.IsDir() {
				_ = os.Remove(filepath.Join(dir, top, e.Name())) // only when empty
			}
		}
	}
	return written, removed, nil
}

// readFolder reads and checks a folder; problems are printed and returned.
func (r *runner) readFolder(dir string) (files.Set, []files.Problem, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return files.Set{}, nil, fmt.Errorf("%s is not a folder (herald pull --app ID %s creates one)", dir, dir)
	}
	set, folder, probs, err := files.Read(dir)
	if err != nil {
		return set, nil, err
	}
	probs = append(probs, check.Set(set, folder)...)
	slices.SortStableFunc(probs, func(a, b files.Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return set, probs, nil
}

func (r *runner) printProblems(dir string, probs []files.Problem) {
	for _, p := range probs {
		loc := filepath.Join(dir, filepath.FromSlash(p.File))
		if p.Line > 0 {
			loc += ":" + strconv.Itoa(p.Line)
		}
		fmt.Fprintf(r.env.Stderr, "%s: %s\n", r.paint(bold, loc), p.Message)
	}
}

func (r *runner) validate(args []string) error {
	fs := r.flags("validate", false)
	pos, err := r.parse(fs, args, 1)
	if err != nil {
		return err
	}
	dir := dirArg(pos)
	set, probs, err := r.readFolder(dir)
	if err != nil {
		return err
	}
	if r.json {
		if probs == nil {
			probs = []files.Problem{}
		}
		if err := r.printJSON(map[string]any{"valid": len(probs) == 0, "problems": probs}); err != nil {
			return err
		}
	} else {
		r.printProblems(dir, probs)
	}
	if len(probs) > 0 {
		if !r.json {
			fmt.Fprintf(r.env.Stderr, "%s\n", r.paint(red, fmt.Sprintf("%d problem(s) in %s", len(probs), dir)))
		}
		return ErrFailed
	}
	r.out("%s %s: %d templates, %d layouts, %d translations, %d categories, %d workflows.", r.paint(green, "valid"), dir,
		len(set.Templates), len(set.Layouts), len(set.Translations), len(set.Categories), len(set.Workflows))
	return nil
}

func (r *runner) diff(args []string) error {
	fs := r.flags("diff", true)
	exitCode := fs.Bool("exit-code", false, "exit with status 1 when there are differences")
	pos, err := r.parse(fs, args, 1)
	if err != nil {
		return err
	}
	dir := dirArg(pos)
	set, folder, probs, err := files.Read(dir)
	if err != nil {
		return err
	}
	_ = folder
	if len(probs) > 0 {
		r.printProblems(dir, probs)
		return fmt.Errorf("%d file(s) of %s cannot be read; fix them first (herald validate %s)", len(probs), dir, dir)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	remote, err := plan.Fetch(r.ctx, c, r.app)
	if err != nil {
		return err
	}
	diffs := plan.Files(files.Render(set, nil), files.Render(remote.Set, nil))
	if r.json {
		if diffs == nil {
			diffs = []plan.FileDiff{}
		}
		if err := r.printJSON(diffs); err != nil {
			return err
		}
	} else if len(diffs) == 0 {
		r.out("No differences between %s and app %d.", dir, r.app)
	} else {
		for _, d := range diffs {
			r.out("%s %s", r.paint(bold, d.Status), r.paint(bold, d.File))
			for _, l := range d.Lines {
				switch l[0] {
				case '+':
					l = r.paint(green, l)
				case '-':
					l = r.paint(red, l)
				}
				r.out("  %s", l)
			}
		}
		r.out("%d file(s) differ (- the app, + the folder).", len(diffs))
	}
	if len(diffs) > 0 && *exitCode {
		return ErrFailed
	}
	return nil
}

func (r *runner) push(args []string) error {
	fs := r.flags("push", true)
	dry := fs.Bool("dry-run", false, "print the plan only")
	prune := fs.Bool("prune", false, "delete the app's templates, layouts and categories that the folder lacks")
	pos, err := r.parse(fs, args, 1)
	if err != nil {
		return err
	}
	dir := dirArg(pos)
	set, probs, err := r.readFolder(dir)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		if r.json {
			_ = r.printJSON(map[string]any{"pushed": false, "problems": probs})
		} else {
			r.printProblems(dir, probs)
		}
		return fmt.Errorf("%d problem(s) in %s: nothing was pushed; fix them (herald validate %s) and push again", len(probs), dir, dir)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	remote, err := plan.Fetch(r.ctx, c, r.app)
	if err != nil {
		return err
	}
	p := plan.Make(set, remote, *prune)
	if !r.json {
		r.printPlan(p)
	}
	if *dry || len(p.Steps) == 0 {
		if r.json {
			return r.printJSON(map[string]any{"pushed": false, "dryRun": *dry, "plan": p})
		}
		if len(p.Steps) == 0 {
			r.out("Nothing to push: app %d matches %s.", r.app, dir)
		} else {
			r.out("Dry run: nothing was pushed.")
		}
		return nil
	}
	for i, st := range p.Steps {
		if r.env.Terminal || len(p.Steps) > 10 {
			r.note("[%d/%d] %s %s %s", i+1, len(p.Steps), st.Action, st.Kind, st.Key)
		}
		if err := st.Apply(r.ctx, c, r.app); err != nil {
			return fmt.Errorf("step %d of %d (%s %s %s %s) failed: %w; the %d step(s) before it were applied: run herald push again once fixed",
				i+1, len(p.Steps), st.Action, st.Kind, st.Key, st.Detail, err, i)
		}
	}
	if r.json {
		return r.printJSON(map[string]any{"pushed": true, "plan": p})
	}
	r.out("%s %d change(s) to app %d as uncommitted changes; herald commit --app %d -m \"…\" records them.", r.paint(green, "Pushed"), len(p.Steps), r.app, r.app)
	return nil
}

func (r *runner) printPlan(p plan.Plan) {
	if len(p.Steps) > 0 {
		r.out("Plan (%d change(s)):", len(p.Steps))
	}
	for _, st := range p.Steps {
		sign, code := "~", yellow
		switch st.Action {
		case "create":
			sign, code = "+", green
		case "delete":
			sign, code = "-", red
		}
		line := fmt.Sprintf("  %s %s %s", sign, st.Kind, st.Key)
		if st.Detail != "" {
			line += " (" + st.Detail + ")"
		}
		r.out("%s", r.paint(code, line))
	}
	for _, n := range p.Notes {
		r.out("  %s %s", r.paint(cyan, "note:"), n)
	}
}

func (r *runner) commit(args []string) error {
	fs := r.flags("commit", true)
	msg := fs.String("m", "", "the commit message")
	fs.StringVar(msg, "message", "", "the commit message")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	if strings.TrimSpace(*msg) == "" {
		return fmt.Errorf("%w: commit needs -m MESSAGE", ErrUsage)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	out, err := c.Commit(r.ctx, r.app, *msg)
	if api.StatusOf(err) == http.StatusConflict {
		if r.json {
			return r.printJSON(map[string]any{"committed": false, "reason": "nothing to commit"})
		}
		r.out("Nothing to commit: app %d has no uncommitted changes.", r.app)
		return nil
	}
	if err != nil {
		return err
	}
	if r.json {
		return r.printJSON(map[string]any{"committed": true, "commit": out})
	}
	r.out("%s commit %d on app %d: %s (%d change(s)).", r.paint(green, "Created"), out.ID, r.app, out.Message, len(out.Changes))
	return nil
}

func (r *runner) changes(args []string) error {
	fs := r.flags("changes", true)
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	list, err := c.Uncommitted(r.ctx, r.app)
	if err != nil {
		return err
	}
	if r.json {
		if list == nil {
			list = []api.Change{}
		}
		return r.printJSON(list)
	}
	if len(list) == 0 {
		r.out("No uncommitted changes in app %d.", r.app)
		return nil
	}
	rows := make([][]string, len(list))
	for i, ch := range list {
		rows[i] = []string{ch.Action, ch.Type, ch.Key}
	}
	r.table([]string{"ACTION", "TYPE", "KEY"}, rows)
	return nil
}

func (r *runner) commits(args []string) error {
	fs := r.flags("commits", true)
	limit := fs.Int("limit", 10, "how many of the latest commits (1-100)")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	if *limit < 1 || *limit > 100 {
		return fmt.Errorf("%w: --limit must be 1 to 100", ErrUsage)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	list, err := c.Commits(r.ctx, r.app, *limit)
	if err != nil {
		return err
	}
	if r.json {
		if list == nil {
			list = []api.Commit{}
		}
		return r.printJSON(list)
	}
	if len(list) == 0 {
		r.out("App %d has no commits.", r.app)
		return nil
	}
	rows := make([][]string, len(list))
	for i, cm := range list {
		var pubs []string
		for _, p := range cm.Publications {
			pubs = append(pubs, p.AppName)
		}
		rows[i] = []string{strconv.FormatInt(cm.ID, 10), cm.CreatedAt.Local().Format("2006-01-02 15:04"), strconv.Itoa(len(cm.Changes)), strings.Join(pubs, ", "), cm.Message}
	}
	r.table([]string{"ID", "CREATED", "CHANGES", "PUBLISHED TO", "MESSAGE"}, rows)
	return nil
}

func (r *runner) publish(args []string) error {
	fs := r.flags("publish", true)
	var commitID int64
	fs.Func("commit", "the commit's id (default: the app's latest)", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return errors.New("--commit must be a commit id")
		}
		commitID = n
		return nil
	})
	toRef := fs.String("to", "", "the app to publish to: its id or name")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	if *toRef == "" {
		return fmt.Errorf("%w: publish needs --to APP (the id or name of the app to publish to)", ErrUsage)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	to, err := r.resolveApp(c, *toRef)
	if err != nil {
		return err
	}
	if commitID == 0 {
		list, err := c.Commits(r.ctx, r.app, 1)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return fmt.Errorf("app %d has no commit yet: herald commit --app %d -m \"…\" first", r.app, r.app)
		}
		commitID = list[0].ID
	}
	out, err := c.Publish(r.ctx, r.app, commitID, to)
	if err != nil {
		return err
	}
	if r.json {
		return r.printJSON(map[string]any{"published": true, "commitId": commitID, "to": to, "result": out})
	}
	r.out("%s commit %d of app %d to app %d.", r.paint(green, "Published"), commitID, r.app, to)
	var res struct {
		Warnings []string `json:"warnings"`
	}
	if json.Unmarshal(out, &res) == nil {
		for _, w := range res.Warnings {
			r.out("  %s %s", r.paint(yellow, "warning:"), w)
		}
	}
	return nil
}

func (r *runner) send(args []string) error {
	fs := r.flags("send", true)
	workflow := fs.String("workflow", "", "the workflow's identifier")
	template := fs.String("template", "", "a template's identifier (instead of a workflow)")
	var to []string
	fs.Func("to", "a recipient's user identifier (repeat for more)", func(s string) error { to = append(to, s); return nil })
	data := fs.String("data", "", "the send's data, a JSON object")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	if (*workflow == "") == (*template == "") || len(to) == 0 {
		return fmt.Errorf("%w: send needs --workflow W (or --template T) and --to USER", ErrUsage)
	}
	n := map[string]any{}
	if *workflow != "" {
		n["workflow"] = map[string]string{"identifier": *workflow}
	} else {
		n["templateIdentifier"] = *template
	}
	body := map[string]any{"notification": n, "sendTo": map[string]any{"recipients": to}}
	if *data != "" {
		var d map[string]any
		if err := json.Unmarshal([]byte(*data), &d); err != nil {
			return fmt.Errorf("%w: --data must be a JSON object, such as '{\"name\": \"Ada\"}' (%v)", ErrUsage, err)
		}
		body["data"] = d
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	id, err := c.Send(r.ctx, r.app, body)
	if err != nil {
		return err
	}
	if r.json {
		return r.printJSON(map[string]any{"requestId": id})
	}
	r.out("Accepted: request %s (herald logs --app %d --follow shows its deliveries).", id, r.app)
	return nil
}

func (r *runner) logs(args []string) error {
	fs := r.flags("logs", true)
	follow := fs.Bool("follow", false, "keep printing new lines until interrupted")
	limit := fs.Int("limit", 20, "how many recent lines to print first (1-100)")
	every := fs.Duration("interval", 2*time.Second, "how often --follow asks for new lines")
	hooks := fs.Bool("webhooks", false, "the event webhook deliveries instead of the message log")
	status := fs.String("status", "", "with --webhooks: only deliveries in this state (pending, succeeded, failed)")
	if _, err := r.parse(fs, args, 0); err != nil {
		return err
	}
	if *limit < 1 || *limit > 100 {
		return fmt.Errorf("%w: --limit must be 1 to 100", ErrUsage)
	}
	if *status != "" && (!*hooks || !slices.Contains([]string{"pending", "succeeded", "failed"}, *status)) {
		return fmt.Errorf("%w: --status needs --webhooks and is pending, succeeded or failed", ErrUsage)
	}
	c, err := r.client()
	if err != nil {
		return err
	}
	if *hooks {
		return r.webhookLogs(c, *status, *limit, *follow, *every)
	}
	seen := map[int64]bool{}
	header := false
	for {
		list, err := c.Logs(r.ctx, r.app, *limit)
		if err != nil {
			if r.ctx.Err() != nil {
				return nil
			}
			return err
		}
		// Oldest first.
		for i := len(list) - 1; i >= 0; i-- {
			e := list[i]
			if seen[e.ID] {
				continue
			}
			seen[e.ID] = true
			if r.json {
				b, _ := json.Marshal(e)
				fmt.Fprintln(r.env.Stdout, string(b))
				continue
			}
			if !header {
				r.out("%s", r.paint(bold, fmt.Sprintf("%-20s %-10s %-20s %-10s %s", "TIME", "CHANNEL", "USER", "STATUS", "TEMPLATE / DETAIL")))
				header = true
			}
			detail := deref(e.TemplateIdentifier)
			if e.Error != nil {
				detail += " " + r.paint(red, *e.Error)
			} else if e.Reason != nil {
				detail += " " + *e.Reason
			}
			status := e.Status
			switch status {
			case "sent", "delivered", "read", "seen":
				status = r.paint(green, fmt.Sprintf("%-10s", status))
			case "failed", "bounced":
				status = r.paint(red, fmt.Sprintf("%-10s", status))
			default:
				status = fmt.Sprintf("%-10s", status)
			}
			r.out("%-20s %-10s %-20s %s %s", e.CreatedAt.Local().Format("2006-01-02 15:04:05"), e.Channel, e.UserIdentifier, status, detail)
		}
		if !*follow {
			if !header && !r.json {
				r.out("No messages yet.")
			}
			return nil
		}
		select {
		case <-r.ctx.Done():
			return nil
		case <-time.After(*every):
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
