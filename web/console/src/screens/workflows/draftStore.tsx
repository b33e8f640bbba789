// draftStore: the designer's stored draft (definition, positions, payload schema), its save and
// publish, and the problems the API reported.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiError } from "../../api/client";
import { useToast } from "../../ui/kit";
import { pretty } from "./diff";
import { definitionToGraph, graphToDefinition, positionsOf, type Definition, type Positions } from "./graph";
import { isSchemaProblem, type JsonSchema } from "./payloadSchema";
import { reportOf, type Report } from "./problems";
import { keys } from "../../api/keys";
import { workflowsApi } from "./api";

/** Flow is the stored workflow the designer edits. */
export type Flow = {
  identifier: string;
  name: string;
  definition: Definition;
  positions?: Positions;
  payloadSchema?: JsonSchema | null;
  publishedVersion?: number | null;
  archivedAt?: string | null;
};

/** Draft is what Save sends: the definition, where the designer draws its steps, and the payload schema. */
export type Draft = { def: Definition; positions: Positions; payloadSchema: JsonSchema | null };

/**
 * useDraftStore saves and publishes the draft. saved is the stored draft's JSON; report is
 * the server's answer to the last failed attempt, filed under the draft it was about (the
 * caller shows it only while that draft is on screen: see problems.ts).
 */
export function useDraftStore(appId: number, flow: Flow) {
  const qc = useQueryClient();
  const toast = useToast();
  const [initial] = useState(() => definitionToGraph(flow.definition, flow.positions));
  const [saved, setSaved] = useState(() => pretty(graphToDefinition(initial.nodes, initial.edges)));
  const [savedPositions, setSavedPositions] = useState(() => JSON.stringify(positionsOf(initial.nodes)));
  const [report, setReport] = useState<Report>();
  const [savedSchema, setSavedSchema] = useState(() => JSON.stringify(flow.payloadSchema ?? null));
  // The server's problems with a payload schema, filed under the schema they were about.
  const [schemaReport, setSchemaReport] = useState<{ schema: string; problems: string[] }>();
  const storedSchema = useRef(savedSchema);
  const failed = (err: Error, draft: Draft) => {
    const msgs = err instanceof ApiError ? err.messages : [];
    const mine = msgs.filter(isSchemaProblem);
    setSchemaReport({ schema: JSON.stringify(draft.payloadSchema), problems: mine });
    // The definition's report leaves the schema's problems out (they are shown in the Payload tab).
    const rest = err instanceof ApiError && mine.length ? (mine.length === msgs.length ? undefined : new ApiError(err.status, msgs.filter((m) => !isSchemaProblem(m)))) : err;
    setReport(rest ? reportOf(rest, draft.def, pretty(draft.def), stored.current) : undefined);
  };
  // The stored draft as of now, for callbacks that outlive a render.
  const stored = useRef(saved);
  const storedPositions = useRef(savedPositions);
  const path = { appId, identifier: flow.identifier };
  const save = useMutation({
    mutationFn: ({ def, positions, payloadSchema }: Draft) =>
      workflowsApi.save(path, { name: flow.name, definition: def as never, positions, payloadSchema }),
    onSuccess: (_, { def, positions, payloadSchema }) => {
      stored.current = pretty(def);
      storedPositions.current = JSON.stringify(positions);
      storedSchema.current = JSON.stringify(payloadSchema);
      setSaved(stored.current);
      setSavedPositions(storedPositions.current);
      setSavedSchema(storedSchema.current);
      setReport(undefined);
      setSchemaReport(undefined);
      // The lists (keyed by their filter), not this workflow's own queries.
      qc.invalidateQueries({ queryKey: keys.workflows.anyList(appId) });
    },
    onError: failed,
  });
  const publish = useMutation({
    mutationFn: async (draft: Draft) => {
      if (
        pretty(draft.def) !== stored.current ||
        JSON.stringify(draft.positions) !== storedPositions.current ||
        JSON.stringify(draft.payloadSchema) !== storedSchema.current
      )
        await save.mutateAsync(draft);
      return workflowsApi.publish(path);
    },
    onSuccess: (res) => {
      toast(`Published version ${res.version}`);
      qc.invalidateQueries({ queryKey: keys.workflows.all(appId) });
    },
    onError: failed,
  });
  return { saved, savedPositions, savedSchema, report, schemaReport, save, publish };
}
