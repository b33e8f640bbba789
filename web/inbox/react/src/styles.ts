// The inbox's styles: the widget's look (web/inbox/src/element.ts) scoped under .herald-*
// classes, themed by the same --herald-* CSS variables. Rendered in a <style> element by the
// components themselves, so server rendering and every bundler need nothing else.

/** The CSS variables that theme the inbox (set them on .herald-root or through `variables`). */
export type ThemeVariable = "accent" | "bg" | "fg" | "muted" | "border" | "hover" | "unread-bg" | "badge-bg" | "badge-fg" | "radius" | "width" | "font";

const dark = "--herald-accent:#818cf8;--herald-bg:#1f2937;--herald-fg:#f9fafb;--herald-muted:#9ca3af;--herald-border:#374151;--herald-hover:#2b3646;--herald-unread-bg:#27304a";

/** The stylesheet, minified by hand (it ships in the bundle as it is). */
export const css = `.herald-root{--herald-accent:#4f46e5;--herald-bg:#fff;--herald-fg:#111827;--herald-muted:#6b7280;--herald-border:#e5e7eb;--herald-hover:#f3f4f6;--herald-unread-bg:#eef2ff;--herald-badge-bg:#dc2626;--herald-badge-fg:#fff;--herald-radius:12px;--herald-width:380px;--herald-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:inline-block;position:relative;font-family:var(--herald-font);color:var(--herald-fg)}
.herald-root[data-theme=dark]{${dark}}
@media (prefers-color-scheme:dark){.herald-root[data-theme=auto]{${dark}}}
.herald-root button{font:inherit;color:inherit;background:none;border:0;margin:0;cursor:pointer}
.herald-root button:focus-visible,.herald-root input:focus-visible{outline:2px solid var(--herald-accent);outline-offset:2px}
.herald-bell{position:relative;display:inline-flex;align-items:center;justify-content:center;width:40px;height:40px;padding:0;border-radius:50%}
.herald-bell:hover{background:var(--herald-hover)}
.herald-badge{position:absolute;top:2px;right:0;min-width:18px;height:18px;padding:0 5px;box-sizing:border-box;border-radius:9px;background:var(--herald-badge-bg);color:var(--herald-badge-fg);font-size:11px;font-weight:700;line-height:18px;text-align:center}
.herald-popover{position:fixed;left:0;top:0;z-index:1000;width:min(var(--herald-width),calc(100vw - 16px));max-height:min(560px,calc(100vh - 80px));box-sizing:border-box;display:flex;flex-direction:column;background:var(--herald-bg);color:var(--herald-fg);border:1px solid var(--herald-border);border-radius:var(--herald-radius);box-shadow:0 12px 32px rgba(0,0,0,.18);overflow:hidden;text-align:left}
@media (max-width:480px){.herald-popover{top:auto;bottom:0;width:100%;max-height:85vh;border-width:1px 0 0;border-radius:var(--herald-radius) var(--herald-radius) 0 0;box-shadow:0 -8px 32px rgba(0,0,0,.22)}}
.herald-popover header{display:flex;align-items:center;gap:8px;padding:12px 12px 8px 16px}
.herald-popover h2{flex:1;margin:0;font-size:16px;font-weight:600}
.herald-tools{display:flex;align-items:center;gap:4px}
.herald-root .herald-link{color:var(--herald-accent);font-size:13px;padding:4px 6px;border-radius:6px}
.herald-root .herald-link:disabled{color:var(--herald-muted);cursor:default}
.herald-root .herald-icon{display:inline-flex;padding:6px;border-radius:6px;color:var(--herald-muted)}
.herald-root .herald-icon:hover,.herald-root .herald-link:not(:disabled):hover{background:var(--herald-hover);color:var(--herald-fg)}
.herald-tabs{display:flex;gap:4px;padding:0 12px;border-bottom:1px solid var(--herald-border);overflow-x:auto;scrollbar-width:none}
.herald-root .herald-tab{padding:8px;font-size:13px;color:var(--herald-muted);border-bottom:2px solid transparent;white-space:nowrap;text-transform:capitalize}
.herald-root .herald-tab[aria-selected=true]{color:var(--herald-fg);border-bottom-color:var(--herald-accent);font-weight:600}
.herald-offline{margin:0;padding:6px 16px;font-size:12px;background:#fef3c7;color:#92400e}
.herald-list{overflow-y:auto;flex:1;min-height:120px}
.herald-list ul{list-style:none;margin:0;padding:0}
.herald-item{position:relative;display:flex;border-bottom:1px solid var(--herald-border)}
.herald-item.herald-unread{background:var(--herald-unread-bg)}
.herald-item:hover{background:var(--herald-hover)}
.herald-body{flex:1;min-width:0;display:flex;flex-direction:column}
.herald-blocks{display:flex;flex-direction:column;gap:8px;padding:0 12px 12px 64px;font-size:13px}
.herald-blocks p{margin:0;overflow-wrap:anywhere}
.herald-blocks code{font-family:ui-monospace,monospace;background:var(--herald-hover);border-radius:4px;padding:1px 4px}
.herald-picture{max-width:100%;max-height:200px;border-radius:8px}
.herald-actor{display:flex;align-items:center;gap:8px}.herald-actor img{width:24px;height:24px;border-radius:50%}
.herald-buttons{display:flex;flex-wrap:wrap;gap:8px}
.herald-btn{padding:4px 12px;border-radius:8px;font-size:13px;font-weight:600;text-decoration:none;border:1px solid var(--herald-accent);cursor:pointer}
.herald-root .herald-btn.herald-primary{background:var(--herald-accent);color:var(--herald-bg)}.herald-root .herald-btn.herald-secondary{color:var(--herald-accent)}
.herald-btn:disabled{opacity:.6}
.herald-root .herald-main{display:flex;gap:12px;align-items:flex-start;padding:12px 8px 12px 16px;text-align:left;min-width:0}
.herald-avatar{flex:none;width:36px;height:36px;border-radius:50%;object-fit:cover;background:var(--herald-hover)}
.herald-placeholder{display:inline-flex;align-items:center;justify-content:center;color:var(--herald-muted);background:var(--herald-border)}
.herald-placeholder svg{width:18px;height:18px}
.herald-text{display:flex;flex-direction:column;gap:2px;min-width:0;flex:1}
.herald-title{font-weight:600;font-size:14px;overflow-wrap:anywhere}
.herald-message{font-size:13px;color:var(--herald-muted);overflow-wrap:anywhere}
.herald-time{font-size:12px;color:var(--herald-muted)}
.herald-dot{flex:none;width:8px;height:8px;margin-top:6px;border-radius:50%;background:var(--herald-accent)}
.herald-actions{display:flex;flex-direction:column;justify-content:center;padding:4px 8px 4px 0;opacity:.55}
.herald-item:hover .herald-actions,.herald-actions:focus-within{opacity:1}
.herald-empty{padding:40px 16px;text-align:center;color:var(--herald-muted);font-size:14px}
.herald-more{padding:12px 16px;text-align:center;color:var(--herald-muted);font-size:13px}`;
