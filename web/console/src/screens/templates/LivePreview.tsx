// The live preview of content being edited, shared by the template editor and the workflow
// designer's step panel: the sample data (JSON) and the variable paths it offers, the
// request sent 300 ms after the last change, the rendered channel, and the variables the
// sample data lacks. Who renders is a prop: a template's preview route, or the app's
// preview of content of no template.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import type { components } from "../../api/client";
import { completionPaths, parseSample, specOf, type Channel } from "../../api/templateForm";
import { Loading } from "../../ui/kit";
import { ChannelPreview } from "./Preview";
import { TextArea } from "./TextArea";

/** Preview is the API's answer to a preview. */
export type Preview = components["schemas"]["TemplatePreview"];

/** sampleText is the sample data's starting text, with data (e.g. made from a payload schema). */
export function sampleText(data: unknown = {}): string {
  return JSON.stringify({ data, user: { identifier: "user-1", profile: { firstName: "Ada" } } }, null, 2);
}

const sampleDefault = sampleText();

/** useSampleData holds the sample data's text, what it parses to, and the variable paths
 * to complete: the built-ins, the sample's, and extraPaths (e.g. a payload schema's). */
export function useSampleData(extraPaths: string[] = [], initial = sampleDefault) {
  const [text, setText] = useState(initial);
  const parsed = useMemo(() => parseSample(text), [text]);
  const extra = extraPaths.join("\n");
  const paths = useMemo(() => [...new Set([...completionPaths(parsed.body), ...extraPaths])], [parsed, extra]); // eslint-disable-line react-hooks/exhaustive-deps
  return { text, setText, parsed, paths };
}

/** useLivePreview renders request (null: nothing to render) through run, 300 ms after it
 * last changed; the previous answer stays on screen while the next one is on its way. */
export function useLivePreview(key: unknown[], request: object | null, run: (body: Record<string, unknown>) => Promise<Preview>) {
  const text = request ? JSON.stringify(request) : null;
  const [debounced, setDebounced] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), 300);
    return () => clearTimeout(t);
  }, [text]);
  const query = useQuery({
    queryKey: [...key, debounced],
    enabled: !!debounced,
    placeholderData: (prev) => prev,
    queryFn: () => run(JSON.parse(debounced!) as Record<string, unknown>),
  });
  return { query, stale: query.isFetching || debounced !== text, waiting: query.isPending && !!debounced };
}

/** PreviewPane shows one channel's rendering, or why there is none. */
export function PreviewPane({ channel, live }: { channel: Channel; live: ReturnType<typeof useLivePreview> }) {
  const id = useId();
  const { query } = live;
  return (
    <section aria-labelledby={id} aria-busy={live.stale || undefined} className="live-preview">
      <h3 id={id}>Live preview</h3>
      {query.isError ? (
        <p className="field-error" role="alert">
          {(query.error as Error).message}
        </p>
      ) : null}
      {query.data?.errors?.[channel] ? (
        <p className="field-error" role="alert">
          {query.data.errors[channel]}
        </p>
      ) : null}
      {live.waiting ? <Loading label="Rendering" /> : <ChannelPreview channel={channel} content={query.data?.channels?.[channel]} />}
    </section>
  );
}

/** MissingVariables lists the variables the channel's content uses that the sample data lacks. */
export function MissingVariables({ channel, preview }: { channel: Channel; preview?: Preview }) {
  const id = useId();
  const spec = specOf(channel)!;
  const warnings = (preview?.warnings ?? []).filter((w) => w.channel === channel);
  const fieldLabel = (field: string) => spec.fields.find((f) => f.name === field)?.label ?? (field.startsWith("layout.") ? `Layout ${field.slice(7)}` : field);
  return (
    <section aria-labelledby={id} className="warnings">
      <h3 id={id}>Missing variables</h3>
      {warnings.length === 0 ? (
        <p className="muted">The sample data holds every variable the {spec.label} content uses.</p>
      ) : (
        <ul aria-labelledby={id}>
          {warnings.map((w) => (
            <li key={`${w.field}.${w.variable}.${w.translation ?? ""}`}>
              {fieldLabel(w.field)}, line {w.line}: {w.message}
              {w.translation ? ` (translation ${w.translation})` : ""}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** SampleData is the sample data's editor. */
export function SampleData({ sample, rows = 8 }: { sample: ReturnType<typeof useSampleData>; rows?: number }) {
  return (
    <TextArea
      label="Sample data (JSON)"
      value={sample.text}
      onChange={(e) => sample.setText(e.target.value)}
      errors={sample.parsed.error ? [sample.parsed.error] : undefined}
      hint="The preview's data, and user {identifier, profile}; its paths are offered after {{ in the editor."
      rows={rows}
    />
  );
}
