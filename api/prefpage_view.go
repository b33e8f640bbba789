package api

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"

	"github.com/heraldhq/herald/internal/audience/prefpage"
)

// prefView is what the preference page template shows: the form (Page set) or a message.
type prefView struct {
	Title, Message, App, CSRF string
	Page                      *prefpage.Page
	Saved                     bool
}

// prefPageCSS is the page's only stylesheet, allowed by its hash in the CSP. Light and
// dark follow the reader's system setting; focus is always visible.
const prefPageCSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#16181d;--muted:#4b5161;--line:#d5d8df;--accent:#1d4ed8;--ok-bg:#e7f6ec;--ok-fg:#14532d;--lock:#6b4e00}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--card:#1b1e25;--fg:#eceef2;--muted:#b4b9c6;--line:#363b47;--accent:#8ab4ff;--ok-bg:#12301f;--ok-fg:#b7f0c9;--lock:#f3cf7a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
header{background:var(--card);border-bottom:1px solid var(--line);padding:.75rem 1rem}
header p{margin:0 auto;max-width:44rem;padding:0 1rem;font-weight:700;font-size:1.1rem}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;margin:0 0 .5rem}
h2{font-size:1.2rem;margin:2rem 0 .25rem}
p{margin:.25rem 0 .75rem}
.hint{color:var(--muted)}
.status{background:var(--ok-bg);color:var(--ok-fg);border-radius:.5rem;padding:.6rem .9rem;font-weight:600}
fieldset{background:var(--card);border:1px solid var(--line);border-radius:.5rem;margin:0 0 .75rem;padding:.6rem 1rem .8rem}
legend{font-weight:650;padding:0 .35rem}
.switches{display:flex;flex-wrap:wrap;gap:.4rem 1.5rem}
label{display:inline-flex;align-items:center;gap:.5rem;padding:.2rem 0;cursor:pointer}
input[type=checkbox]{width:1.2rem;height:1.2rem;margin:0;accent-color:var(--accent)}
input:disabled+span,input:disabled~span{opacity:.75}
.locked{color:var(--lock);font-size:.92rem;margin:.1rem 0 .4rem}
.flow .whole{font-weight:600}
.flow .channels{margin-left:1.7rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border:0;border-radius:.5rem;background:var(--accent);color:var(--card);cursor:pointer;margin-top:1rem}
:focus-visible{outline:3px solid var(--accent);outline-offset:3px}
a{color:var(--accent)}
`

// prefPageCSP allows nothing but the stylesheet above and form posts to the page itself.
var prefPageCSP = func() string {
	sum := sha256.Sum256([]byte(prefPageCSS))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}()

var prefPageTemplate = template.Must(template.New("preferences").Funcs(template.FuncMap{
	"channelName": prefpage.ChannelName,
	"css":         func() template.CSS { return template.CSS(prefPageCSS) },
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}{{if .App}} · {{.App}}{{end}}</title>
<style>{{css}}</style>
</head>
<body>
{{- if .App}}
<header><p>{{.App}}</p></header>
{{- end}}
<main>
<h1>{{.Title}}</h1>
{{- if .Message}}
<p>{{.Message}}</p>
{{- else}}{{with .Page}}
{{- if $.Saved}}
<p class="status" role="status">Your preferences are saved.</p>
{{- end}}
<p class="hint">Choose what {{.AppName}} sends you, and where. Changes apply to notifications sent after you save.</p>
<form method="post">
<input type="hidden" name="csrf" value="{{$.CSRF}}">
<h2>Topics</h2>
<p class="hint">Turn each kind of notification on or off, per channel.</p>
{{- range .Categories}}{{$cat := .}}
<fieldset{{if .Critical}} aria-describedby="locked-category-{{.ID}}"{{end}}>
<legend>{{.Name}}{{if .Critical}} (always on){{end}}</legend>
{{- if .Critical}}
<p class="locked" id="locked-category-{{.ID}}">{{.LockedReason}}</p>
{{- end}}
<div class="switches">
{{- range .Switches}}
{{- if not .Locked}}<input type="hidden" name="{{.Field}}" value="0">{{end}}
<label><input type="checkbox" name="{{.Field}}" value="1"{{if .On}} checked{{end}}{{if .Locked}} disabled{{end}}><span><span class="vh">{{$cat.Name}}: </span>{{channelName .Channel}}</span></label>
{{- end}}
</div>
</fieldset>
{{- else}}
<p>There are no topics to choose from yet.</p>
{{- end}}
<h2>Channels</h2>
<p class="hint">Turn a channel off to receive nothing on it, except critical notifications.</p>
<fieldset>
<legend>Receive notifications by</legend>
<div class="switches">
{{- range .Channels}}
<input type="hidden" name="{{.Field}}" value="0">
<label><input type="checkbox" name="{{.Field}}" value="1"{{if .On}} checked{{end}}><span><span class="vh">All notifications: </span>{{channelName .Channel}}</span></label>
{{- end}}
</div>
</fieldset>
{{- if .Flows}}
<h2>Notifications</h2>
<p class="hint">Turn off a particular notification entirely, or only on some channels. A channel you set here wins over the notification's switch and its topic.</p>
{{- range $i, $f := .Flows}}
<fieldset class="flow"{{if .Locked}} aria-describedby="locked-workflow-{{$i}}"{{end}}>
<legend class="vh">{{.Label}}</legend>
{{- if not .Locked}}<input type="hidden" name="{{.Field}}" value="0">{{end}}
<label class="whole"><input type="checkbox" name="{{.Field}}" value="1"{{if .On}} checked{{end}}{{if .Locked}} disabled{{end}}><span>{{.Label}}{{if .Locked}} (always on){{end}}</span></label>
{{- if .Locked}}
<p class="locked" id="locked-workflow-{{$i}}">{{.LockedReason}}</p>
{{- end}}
{{- if .Channels}}
<div class="switches channels">
{{- range .Channels}}
{{- if not .Locked}}<input type="hidden" name="{{.Field}}" value="0">{{end}}
<label><input type="checkbox" name="{{.Field}}" value="1"{{if .On}} checked{{end}}{{if .Locked}} disabled{{end}}><span><span class="vh">{{$f.Label}}: </span>{{channelName .Channel}}</span></label>
{{- end}}
</div>
{{- end}}
</fieldset>
{{- end}}
{{- end}}
<button type="submit">Save preferences</button>
</form>
{{- end}}{{end}}
</main>
</body>
</html>
`))
