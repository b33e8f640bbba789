// The actions that manage a workflow, on the list and in the designer: Rename, Duplicate,
// Critical, Archive/Unarchive and Delete. The server's refusal (a name too long, an identifier taken,
// a workflow a schedule sends) is shown next to the action that got it.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Checkbox, ConfirmButton } from "../../ui/confirm";
import { Button, Field, FormError, useToast } from "../../ui/kit";
import { copyIdentifier, copyName } from "./manage";
import { keys } from "../../api/keys";
import { workflowsApi } from "./api";

type Managed = { identifier: string; name: string; archivedAt?: string | null; critical?: boolean };

/** WorkflowActions are the management actions of one workflow. */
export function WorkflowActions({ appId, flow, from }: { appId: number; flow: Managed; from: "list" | "designer" }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const path = { appId, identifier: flow.identifier };
  const refresh = () => qc.invalidateQueries({ queryKey: keys.workflows.all(appId) });
  const archive = useMutation({
    mutationFn: (archived: boolean) => workflowsApi.update(path, { archived }),
    onSuccess: (f) => {
      toast(f.archivedAt ? `Archived ${flow.name}` : `Unarchived ${flow.name}`);
      refresh();
    },
  });
  // From the designer, the list is one level up; from the list, a workflow is a child.
  const to = (identifier: string) => (from === "designer" ? `../${encodeURIComponent(identifier)}` : encodeURIComponent(identifier));
  return (
    <>
      <NameDialog
        trigger="Rename"
        label={`Rename ${flow.name}`}
        title={`Rename ${flow.name}`}
        description="Only the name changes: sends keep naming the workflow by its identifier."
        action="Rename"
        fields={{ name: flow.name }}
        submit={({ name }) => workflowsApi.update(path, { name })}
        onDone={() => (toast("Renamed"), refresh())}
      />
      <NameDialog
        trigger="Duplicate"
        label={`Duplicate ${flow.name}`}
        title={`Duplicate ${flow.name}`}
        description="The copy is a new draft with the same steps; publish it before sends can use it."
        action="Duplicate"
        fields={{ identifier: copyIdentifier(flow.identifier), name: copyName(flow.name) }}
        submit={(body) => workflowsApi.duplicate(path, body as { identifier: string; name: string })}
        onDone={(f) => {
          refresh();
          navigate(to((f as Managed).identifier));
        }}
      />
      <CriticalToggle appId={appId} flow={flow} />
      <Button variant="ghost" aria-label={`${flow.archivedAt ? "Unarchive" : "Archive"} ${flow.name}`} busy={archive.isPending} onClick={() => archive.mutate(!flow.archivedAt)}>
        {flow.archivedAt ? "Unarchive" : "Archive"}
      </Button>
      <ConfirmButton
        label={`Delete ${flow.name}`}
        title={`Delete ${flow.name}?`}
        description="The workflow and its published versions go; sends naming it are refused. Its run logs stay. A workflow a schedule sends cannot be deleted: delete the schedule first."
        action="Delete workflow"
        onConfirm={async () => {
          await workflowsApi.remove(path);
          toast(`Deleted ${flow.name}`);
          qc.removeQueries({ queryKey: keys.workflows.detail(appId, flow.identifier) });
          refresh();
          if (from === "designer") navigate("..");
        }}
      >
        Delete
      </ConfirmButton>
      {archive.error && <FormError errors={[(archive.error as Error).message]} />}
    </>
  );
}

/** NameDialog asks for a few text fields (a name, an identifier) and submits them. */
function NameDialog<F extends Record<string, string>>({
  trigger,
  label,
  title,
  description,
  action,
  fields,
  submit,
  onDone,
}: {
  trigger: string;
  label: string;
  title: string;
  description: string;
  action: string;
  fields: F;
  submit: (values: F) => Promise<unknown>;
  onDone: (res: unknown) => void;
}) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(fields);
  const m = useMutation({
    mutationFn: () => submit(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as F),
    onSuccess: (res) => {
      setOpen(false);
      onDone(res);
    },
  });
  const keys = Object.keys(fields);
  const errs = fieldErrors(m.error, keys);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setValues(fields);
        m.reset();
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="ghost" aria-label={label}>
          {trigger}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description className="muted">{description}</Dialog.Description>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              m.mutate();
            }}
          >
            {keys.map((k) => (
              <Field key={k} label={k === "name" ? "Name" : "Identifier"} value={values[k]} required onChange={(e) => setValues({ ...values, [k]: e.target.value })} errors={errs[k]} />
            ))}
            <FormError errors={errs[""]} />
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button variant="secondary">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" busy={m.isPending}>
                {action}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** CriticalToggle marks a workflow critical (its steps ignore opt-outs) or not; the box moves
 * at once and back when the change is refused. */
function CriticalToggle({ appId, flow }: { appId: number; flow: Managed }) {
  const qc = useQueryClient();
  const toast = useToast();
  const m = useMutation({
    mutationFn: (critical: boolean) =>
      workflowsApi.update({ appId, identifier: flow.identifier }, { critical }),
    // Pending until the list is read again, so the box never shows the old mark meanwhile.
    onSuccess: (f) => {
      toast(f.critical ? `${flow.name} is critical` : `${flow.name} is no longer critical`);
      return qc.invalidateQueries({ queryKey: keys.workflows.all(appId) });
    },
  });
  return (
    <span className="inline-check" title="Critical notifications ignore opt-outs">
      <Checkbox
        aria-label={`Critical: ${flow.name}`}
        aria-description="Critical notifications ignore opt-outs"
        checked={m.isPending ? !!m.variables : !!flow.critical}
        aria-busy={m.isPending || undefined}
        onChange={(on) => m.mutate(on)}
      />{" "}
      Critical
      {m.isError && <FormError errors={[(m.error as Error).message]} />}
    </span>
  );
}
