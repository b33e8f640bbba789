// Instances: a channel's provider instances: a row per instance (connection test, enable,
// disable, priority) and the form that configures a new one from its provider's schema.
import * as Label from "@radix-ui/react-label";
import { channelNames } from "../../api/channels";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { configBody, fieldHint, formFields, type FormField } from "../../api/providerForm";
import { Button, Field, FormError, useToast } from "../../ui/kit";
import { keys } from "../../api/keys";
import { channelsApi } from "./api";

type Provider = components["schemas"]["ProviderEntity"];
type Instance = components["schemas"]["AppChannelProviderEntity"];

export function InstanceRow({ appId, inst, provider, dev }: { appId: number; inst: Instance; provider?: string; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const path = { appId, channel: inst.channel!, providerInstance: inst.id! };
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const test = useMutation({
    mutationFn: () => channelsApi.updateInstance(path, { test: true }),
    onMutate: () => setResult(null),
    onSuccess: (r) => setResult({ ok: true, text: r.connectionTest === "passed" ? "Connection test passed" : "This provider has no connection test" }),
    onError: (e) => setResult({ ok: false, text: (e as Error).message }),
  });
  const toggle = useMutation({
    mutationFn: (on: boolean) =>
      on
        ? channelsApi.enableInstance(path)
        : channelsApi.disableInstance(path),
    onSuccess: (_r, on) => {
      qc.invalidateQueries({ queryKey: keys.channels.all(appId) });
      toast(`${inst.name} is ${on ? "enabled" : "disabled"}`);
    },
    onError: (e) => toast((e as Error).message),
  });
  const ch = channelNames[inst.channel!] ?? inst.channel;
  return (
    <tr>
      <td>{ch}</td>
      <td>{inst.name}</td>
      <td>{provider}</td>
      <td>{dev ? <PriorityInput appId={appId} inst={inst} label={`Priority of ${inst.name} (${ch})`} /> : inst.priority}</td>
      <td>
        <span className={inst.enabled ? "badge badge-ok" : "badge"}>{inst.enabled ? "Enabled" : "Disabled"}</span>
        {result && (
          <p className={result.ok ? "test-ok" : "field-error"} role={result.ok ? "status" : "alert"}>
            {result.text}
          </p>
        )}
      </td>
      {dev && (
        <td className="actions">
          <Button variant="secondary" busy={test.isPending} aria-label={`Test the connection of ${inst.name} (${ch})`} onClick={() => test.mutate()}>
            Test connection
          </Button>
          <Button
            variant="ghost"
            aria-busy={toggle.isPending || undefined}
            aria-label={`${inst.enabled ? "Disable" : "Enable"} ${inst.name} (${ch})`}
            onClick={() => !toggle.isPending && toggle.mutate(!inst.enabled)}
          >
            {inst.enabled ? "Disable" : "Enable"}
          </Button>
        </td>
      )}
    </tr>
  );
}

export function InstanceForm({ appId, provider, onDone }: { appId: number; provider: Provider; onDone: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const fields = formFields(provider.configSchema);
  const channel = provider.channel!;
  const [name, setName] = useState("");
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, f.default ?? ""])),
  );
  const create = useMutation({
    mutationFn: (test: boolean) =>
      channelsApi.createInstance(appId, channel, { providerIdentifier: provider.identifier!, name: name.trim() || undefined, config: configBody(fields, values), test }),
    onSuccess: (inst) => {
      qc.invalidateQueries({ queryKey: keys.channels.all(appId) });
      toast(inst.connectionTest === "passed" ? `Connection test passed: ${inst.name} is saved` : `${inst.name} is saved`);
      onDone();
    },
  });
  const errs = create.isError ? fieldErrors(create.error, ["name", ...fields.map((f) => `config.${f.key}`)]) : {};
  const submit = (test: boolean) => (e?: FormEvent) => {
    e?.preventDefault();
    create.mutate(test);
  };
  const title = `Add ${provider.name} on ${channelNames[channel] ?? channel}`;
  return (
    <section className="card" aria-labelledby="form-h">
      <h2 id="form-h">{title}</h2>
      <form onSubmit={submit(false)} noValidate aria-labelledby="form-h">
        <p className="hint">Fields marked * are required. Secrets are stored sealed and never shown again.</p>
        <Field label="Name" value={name} placeholder={provider.identifier} onChange={(e) => setName(e.target.value)} errors={errs["name"]} maxLength={100} />
        {fields.map((f) => (
          <ConfigField key={f.key} field={f} value={values[f.key] ?? ""} errors={errs[`config.${f.key}`]} onChange={(v) => setValues((s) => ({ ...s, [f.key]: v }))} />
        ))}
        <FormError errors={errs[""]} />
        <div className="row">
          <Button type="submit" busy={create.isPending && !create.variables}>
            Save
          </Button>
          <Button type="button" variant="secondary" busy={create.isPending && create.variables} onClick={submit(true)}>
            Test connection and save
          </Button>
          <Button type="button" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

function ConfigField({ field: f, value, errors, onChange }: { field: FormField; value: string; errors?: string[]; onChange: (v: string) => void }) {
  const id = useId();
  const label = f.required ? `${f.title} *` : f.title;
  if (f.kind === "enum" || f.kind === "boolean") {
    const options = f.kind === "boolean" ? ["true", "false"] : f.options;
    return (
      <div className="field">
        <Label.Root htmlFor={id}>{label}</Label.Root>
        <select
          id={id}
          value={value}
          aria-required={f.required || undefined}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${id}-err` : fieldHint(f) ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.value)}
        >
          {!f.required && <option value="">(default)</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        {fieldHint(f) && (
          <p className="hint" id={`${id}-hint`}>
            {fieldHint(f)}
          </p>
        )}
        {errors?.length ? (
          <p className="field-error" id={`${id}-err`} role="alert">
            {errors.join(". ")}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Field
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      errors={errors}
      hint={fieldHint(f)}
      type={f.secret ? "password" : f.kind === "number" ? "number" : "text"}
      autoComplete={f.secret ? "new-password" : "off"}
      aria-required={f.required || undefined}
    />
  );
}

/** PriorityInput sets an instance's priority (lower is tried first when no route decides). */
export function PriorityInput({ appId, inst, label }: { appId: number; inst: Instance; label: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [value, setValue] = useState(String(inst.priority ?? 0));
  useEffect(() => setValue(String(inst.priority ?? 0)), [inst.priority]);
  const m = useMutation({
    mutationFn: (priority: number) =>
      channelsApi.updateInstance({ appId, channel: inst.channel!, providerInstance: inst.id! }, { priority }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: keys.channels.all(appId) });
      toast(`${inst.name}: priority saved`);
    },
  });
  const commit = () => {
    const n = Number(value);
    if (value.trim() !== "" && Number.isInteger(n) && n !== inst.priority) m.mutate(n);
  };
  const errs = m.isError ? fieldErrors(m.error, ["priority"]) : {};
  const msgs = [...(errs.priority ?? []), ...(errs[""] ?? [])];
  return (
    <div className="priority">
      <Label.Root htmlFor={id} className="sr-only">
        {label}
      </Label.Root>
      <input
        id={id}
        type="number"
        step={1}
        value={value}
        style={{ width: "5em" }}
        aria-invalid={msgs.length ? true : undefined}
        aria-describedby={msgs.length ? `${id}-err` : undefined}
        aria-busy={m.isPending || undefined}
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
      {msgs.length > 0 && (
        <p className="field-error" id={`${id}-err`} role="alert">
          {msgs.join(". ")}
        </p>
      )}
    </div>
  );
}

/** ChannelRoutes lists a channel's routes in evaluation order and adds, switches and
 * deletes them. A route sends through its instances in order; with failover, a failed
 * attempt moves on to the next one. */
