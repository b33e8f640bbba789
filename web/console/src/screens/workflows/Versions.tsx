// The version history of a workflow: its published versions, and the diff between any two
// of them or the draft.
import { useState } from "react";
import { Button, Empty, ErrorState, Loading } from "../../ui/kit";
import { canonical, diffLines, pretty } from "./diff";
import type { Definition } from "./graph";
import type { JsonSchema } from "./payloadSchema";
import { useVersions } from "./api";

export function Versions({ appId, identifier, draft, onLoad }: { appId: number; identifier: string; draft: Definition; onLoad?: (d: Definition, payloadSchema: JsonSchema | null) => void }) {
  const versions = useVersions(appId, identifier);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("draft");
  if (versions.isPending) return <Loading label="Loading the versions" />;
  if (versions.isError) return <ErrorState error={versions.error} retry={() => versions.refetch()} />;
  const list = versions.data;
  if (list.length === 0) return <Empty title="Not published yet"><p className="muted">Publish the draft to make its first version: sends run the published version.</p></Empty>;
  const text = (v: string) => pretty(canonical(v === "draft" ? draft : list.find((x) => String(x.version) === v)?.definition ?? {}));
  const a = from || String(list[0]!.version);
  const lines = diffLines(text(a), text(to));
  const changed = lines.filter((l) => l.op !== " ").length;
  return (
    <div className="versions">
      <section className="card" aria-label="Published versions">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">Steps</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((v) => (
              <tr key={v.version}>
                <td>v{v.version}</td>
                <td>{new Date(v.publishedAt).toLocaleString()}</td>
                <td>{(v.definition as Definition).steps.length}</td>
                <td className="actions">
                  <Button variant="secondary" onClick={() => (setFrom(String(v.version)), setTo("draft"))}>Compare v{v.version} with the draft</Button>
                  {onLoad && <Button variant="ghost" onClick={() => onLoad(v.definition as Definition, (v.payloadSchema as JsonSchema | null | undefined) ?? null)}>Open v{v.version} as the draft</Button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-label="Diff">
        <div className="row">
          <div className="field">
            <label htmlFor="diff-from">From</label>
            <select id="diff-from" value={a} onChange={(e) => setFrom(e.target.value)}>
              {list.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}
              <option value="draft">draft</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="diff-to">To</label>
            <select id="diff-to" value={to} onChange={(e) => setTo(e.target.value)}>
              {list.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}
              <option value="draft">draft</option>
            </select>
          </div>
        </div>
        <p role="status">{changed === 0 ? "No differences." : `${changed} changed line${changed === 1 ? "" : "s"}.`}</p>
        <pre className="diff" aria-label={`Diff from ${a === "draft" ? "the draft" : `v${a}`} to ${to === "draft" ? "the draft" : `v${to}`}`}>
          {lines.map((l, i) => (
            <div key={i} className={l.op === "+" ? "diff-add" : l.op === "-" ? "diff-del" : undefined}>
              {l.op} {l.text}
            </div>
          ))}
        </pre>
      </section>
    </div>
  );
}
