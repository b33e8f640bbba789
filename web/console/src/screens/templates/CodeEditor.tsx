// The code editor of Handlebars texts (CodeMirror 6), loaded lazily by CodeField: the
// initial bundle does not carry it. Tags ({{…}}) are highlighted over the text (or the
// HTML of an email body), and typing inside {{ offers the sample data's variable paths.
import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { HighlightStyle, LRLanguage, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { Decoration, EditorView, keymap, MatchDecorator, placeholder, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { parser as htmlParser } from "@lezer/html";
import { useEffect, useRef } from "react";
import { variableAt } from "../../api/templateForm";

export type CodeEditorProps = {
  value: string;
  onChange: (v: string) => void;
  lang: "html" | "text";
  lines: number;
  paths: string[];
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
  readOnly?: boolean;
  placeholderText?: string;
};

const tagMatcher = new MatchDecorator({ regexp: /\{\{\{?[^{}]*\}?\}\}/g, decoration: Decoration.mark({ class: "cm-hbs-tag" }) });
const handlebarsTags = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tagMatcher.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = tagMatcher.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

// HTML without the CSS and JavaScript of <style> and <script> (an email has none that
// runs): @lezer/html's parser alone, a third of @codemirror/lang-html's size.
const htmlLanguage = LRLanguage.define({ name: "html", parser: htmlParser });

// Colours from the console's CSS variables: one style for both themes.
const htmlStyle = HighlightStyle.define([
  { tag: tags.tagName, color: "var(--accent)" },
  { tag: tags.attributeName, color: "var(--muted)" },
  { tag: tags.attributeValue, color: "var(--ok)" },
  { tag: tags.comment, color: "var(--muted)", fontStyle: "italic" },
  { tag: tags.angleBracket, color: "var(--muted)" },
]);

const theme = EditorView.theme({
  "&": { border: "1px solid var(--border)", borderRadius: "6px", background: "var(--surface)", color: "var(--text)", fontSize: "0.9rem" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "1px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", caretColor: "var(--text)" },
  ".cm-cursor": { borderLeftColor: "var(--text)" },
  ".cm-hbs-tag": { color: "var(--accent)", background: "var(--accent-soft)", borderRadius: "3px" },
  ".cm-tooltip": { background: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { background: "var(--accent)", color: "var(--accent-text)" },
  ".cm-placeholder": { color: "var(--muted)" },
});

export default function CodeEditor(p: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(p);
  latest.current = p;
  const attrs = useRef(new Compartment());
  const editable = useRef(new Compartment());

  useEffect(() => {
    const complete = (ctx: CompletionContext): CompletionResult | null => {
      const line = ctx.state.doc.lineAt(ctx.pos);
      const at = variableAt(line.text.slice(0, ctx.pos - line.from));
      if (!at) return null;
      if (!ctx.explicit && at.prefix === "" && !line.text.slice(0, ctx.pos - line.from).endsWith("{{")) return null;
      return {
        from: line.from + at.from,
        options: latest.current.paths.map((label) => ({ label, type: "variable" })),
        validFor: /^[\w$.\-[\]@]*$/,
      };
    };
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: p.value,
        extensions: [
          history(),
          // Tab indents in multi-line fields (Escape then Tab leaves them); in one-line
          // fields it moves on.
          keymap.of([...defaultKeymap, ...historyKeymap, ...(p.lines > 1 ? [indentWithTab] : [])]),
          p.lang === "html" ? [htmlLanguage, syntaxHighlighting(htmlStyle)] : [],
          handlebarsTags,
          // The list opens only inside {{ }}, where Enter is no newline: it takes the
          // highlighted path at once (no interaction delay).
          autocompletion({ override: [complete], activateOnTyping: true, interactionDelay: 0 }),
          // A one-line field (a subject, a title, a URL) takes no newline.
          p.lines <= 1 ? [keymap.of([{ key: "Enter", run: () => true }]), EditorState.transactionFilter.of((tr) => (tr.docChanged && tr.newDoc.lines > 1 ? [] : tr))] : [],
          EditorView.lineWrapping,
          theme,
          placeholder(p.placeholderText ?? ""),
          attrs.current.of(EditorView.contentAttributes.of(contentAttrs(p))),
          editable.current.of(EditorView.editable.of(!p.readOnly)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
          EditorView.theme({ ".cm-content": { minHeight: `${Math.max(1, p.lines) * 1.45}em` } }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Outside changes (a reload, a reset) replace the text; typing does not come back here.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== p.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: p.value } });
  }, [p.value]);
  useEffect(() => {
    view.current?.dispatch({
      effects: [attrs.current.reconfigure(EditorView.contentAttributes.of(contentAttrs(p))), editable.current.reconfigure(EditorView.editable.of(!p.readOnly))],
    });
  }, [p.labelId, p.describedBy, p.invalid, p.readOnly]); // eslint-disable-line react-hooks/exhaustive-deps

  return <div ref={host} className="code-editor" />;
}

function contentAttrs(p: CodeEditorProps): Record<string, string> {
  const a: Record<string, string> = { "aria-labelledby": p.labelId, spellcheck: "false" };
  if (p.describedBy) a["aria-describedby"] = p.describedBy;
  if (p.invalid) a["aria-invalid"] = "true";
  if (p.readOnly) a["aria-readonly"] = "true";
  return a;
}
