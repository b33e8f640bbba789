// The blocks of a notification in React, as the widget renders them (docs/inbox-widget.md#blocks):
// text with the markdown subset, https images with alt text, avatar, and buttons (a link,
// or a state set through the state action). React escapes every text: nothing here writes HTML.
import type { ReactNode } from "react";
import type { Notification } from "@heraldhq/inbox/client";
import { isSafeUrl, urlScheme } from "@heraldhq/inbox/safeurl";

/** A block as Herald stores it (the Block schema of the v3 OpenAPI document). */
export interface Block {
  type: string;
  states?: string[];
  exceptStates?: string[];
  text?: string;
  url?: string;
  alt?: string;
  name?: string;
  imageUrl?: string;
  buttons?: { label: string; style?: "primary" | "secondary"; url?: string; state?: string }[];
}

const https = (u?: string): u is string => !!u && urlScheme(u) === "https" && /^\s*https:\/\//i.test(u);
const shown = (b: Block, s?: string | null) => !(b.states && !b.states.includes(s ?? "")) && !(b.exceptStates && s && b.exceptStates.includes(s));
const INLINE = /\*\*([^*\n]+)\*\*|`([^`\n]+)`|\[([^\]\n]*)\]\(([^)\s]*)\)|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])/g;

/** The markdown subset: **bold**, *italic* / _italic_, `code`, [links](url) (safe ones), line breaks. */
function markdown(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  text.split("\n").forEach((line, i) => {
    if (i) out.push(<br key={`br${i}`} />);
    let last = 0;
    for (const m of line.matchAll(INLINE)) {
      if (m.index! > last) out.push(line.slice(last, m.index));
      const [, b, c, label, href, star, under] = m;
      const k = `${i}.${m.index}`;
      out.push(
        b !== undefined ? <strong key={k}>{b}</strong>
        : c !== undefined ? <code key={k}>{c}</code>
        : label !== undefined ? (href && isSafeUrl(href) ? <a key={k} href={href} target="_top" rel="noopener">{label || href}</a> : label)
        : <em key={k}>{star ?? under}</em>,
      );
      last = m.index! + m[0].length;
    }
    if (last < line.length) out.push(line.slice(last));
  });
  return out;
}

/** Props of Blocks. */
export interface BlocksProps {
  notification: Notification;
  /** Sets a state (a state button); the default Inbox passes its setState action. */
  onState?: (state: string) => void;
}

/** The visible blocks of a notification (nothing when none shows). */
export function Blocks({ notification: n, onState }: BlocksProps) {
  const list = ((n.blocks ?? []) as Block[]).filter((b) => b && typeof b === "object" && shown(b, n.state));
  if (!list.length) return null;
  return (
    <div className="herald-blocks">
      {list.map((b, i) => {
        switch (b.type) {
          case "text":
            return typeof b.text === "string" ? <p key={i}>{markdown(b.text)}</p> : null;
          case "image":
            return https(b.url) && b.alt ? <img key={i} className="herald-picture" src={b.url} alt={b.alt} loading="lazy" /> : null;
          case "avatar":
            return b.name ? (
              <div key={i} className="herald-actor">
                {https(b.imageUrl) ? <img src={b.imageUrl} alt="" /> : null}
                <span><strong>{b.name}</strong>{b.text ? " " + b.text : ""}</span>
              </div>
            ) : null;
          case "buttons":
            return (
              <div key={i} className="herald-buttons">
                {(b.buttons ?? []).map((x, j) => {
                  const cls = `herald-btn herald-${x.style === "secondary" ? "secondary" : "primary"}`;
                  if (x.state) {
                    const s = x.state;
                    return <button key={j} className={cls} disabled={n.state === s} onClick={() => onState?.(s)}>{x.label}</button>;
                  }
                  return x.url && isSafeUrl(x.url) ? <a key={j} className={cls} href={x.url} target="_top" rel="noopener">{x.label}</a> : null;
                })}
              </div>
            );
        }
        return null;
      })}
    </div>
  );
}
