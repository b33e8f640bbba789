// Channels and providers: the app's provider instances per channel (connection test,
// enable / disable, priority), the routes of each channel (which instances a send goes
// through, in order, failing over), the catalogue of every provider kind, and an instance
// form generated from the provider's JSON Schema (secrets masked and never sent back).
import * as Label from "@radix-ui/react-label";
import { channelNames } from "../api/channels";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data, fieldErrors, type components } from "../api/client";
import { configBody, fieldHint, formFields, type FormField } from "../api/providerForm";
import { Checkbox, ConfirmButton } from "../ui/confirm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../ui/kit";
import { atLeast, useClients, type App } from "./queries";

type Provider = components["schemas"]["ProviderEntity"];
type Instance = components["schemas"]["AppChannelProviderEntity"];
type Route = components["schemas"]["RouteEntity"];
type Channel = NonNullable<Provider["channel"]>;


export default function Channels() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const [adding, setAdding] = useState<Provider | null>(null);
  useEffect(() => {
    document.title = "Channels · Herald";
  }, []);
  const catalogue = useQuery({ queryKey: ["providers"], queryFn: () => data(api.GET("/v1/providers")), staleTime: Infinity });
  const instances = useQuery({
    queryKey: ["apps", appId, "channels"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/channels", { params: { path: { appId } } })),
  });

  if (catalogue.isPending || instances.isPending || clients.isPending) return <Loading label="Loading channels" />;
  if (catalogue.isError) return <ErrorState error={catalogue.error} retry={() => catalogue.refetch()} />;
  if (instances.isError) return <ErrorState error={instances.error} retry={() => instances.refetch()} />;

  const byChannel = new Map<Channel, Provider[]>();
  for (const p of catalogue.data) if (p.channel) byChannel.set(p.channel, [...(byChannel.get(p.channel) ?? []), p]);
  const kindName = (id?: string) => catalogue.data.find((p) => p.identifier === id)?.name ?? id;

  return (
    <>
      <h1>Channels and providers</h1>
      <section className="card" aria-labelledby="instances-h">
        <h2 id="instances-h">Configured providers</h2>
        {instances.data.length === 0 ? (
          <Empty title="No provider is configured yet">
            <p className="muted">Add one from the catalogue below: messages on a channel without a provider are skipped.</p>
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Name</th>
                <th scope="col">Provider</th>
                <th scope="col">Priority</th>
                <th scope="col">Status</th>
                {dev && (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {instances.data.map((i) => (
                <InstanceRow key={i.id} appId={appId} inst={i} provider={kindName(i.providerIdentifier)} dev={dev} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {[...new Set(instances.data.map((i) => i.channel!))].map((ch) => (
        <ChannelRoutes key={ch} appId={appId} channel={ch} instances={instances.data.filter((i) => i.channel === ch)} dev={dev} />
      ))}
      {adding && <InstanceForm appId={appId} provider={adding} onDone={() => setAdding(null)} />}
      <section className="card" aria-labelledby="catalogue-h">
        <h2 id="catalogue-h">Provider catalogue</h2>
        {catalogue.data.length === 0 ? (
          <Empty title="This build has no providers" />
        ) : (
          [...byChannel].map(([ch, list]) => (
            <div key={ch} className="catalogue-group">
              <h3 id={`cat-${ch}`}>{channelNames[ch] ?? ch}</h3>
              <ul className="list" aria-labelledby={`cat-${ch}`}>
                {list.map((p) => (
                  <li key={p.identifier} className="row">
                    <span>
                      {p.name} <code className="muted">{p.identifier}</code>
                    </span>
                    {dev && (
                      <Button variant="secondary" aria-label={`Add ${p.name} on ${channelNames[ch] ?? ch}`} onClick={() => setAdding(p)}>
                        Add
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </section>
    </>
  );
}

function InstanceRow({ appId, inst, provider, dev }: { appId: number; inst: Instance; provider?: string; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const path = { appId, channel: inst.channel!, providerInstance: inst.id! };
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const test = useMutation({
    mutationFn: () =>
      data(api.PATCH("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", { params: { path }, body: { test: true } })),
    onMutate: () => setResult(null),
    onSuccess: (r) => setResult({ ok: true, text: r.connectionTest === "passed" ? "Connection test passed" : "This provider has no connection test" }),
    onError: (e) => setResult({ ok: false, text: (e as Error).message }),
  });
  const toggle = useMutation({
    mutationFn: (on: boolean) =>
      on
        ? data(api.PUT("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/enable", { params: { path } }))
        : data(api.PUT("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/disable", { params: { path } })),
    onSuccess: (_r, on) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "channels"] });
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

function InstanceForm({ appId, provider, onDone }: { appId: number; provider: Provider; onDone: () => void }) {
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
      data(
        api.POST("/v1/apps/{appId}/channels/{channel}/providerInstances", {
          params: { path: { appId, channel } },
          body: { providerIdentifier: provider.identifier!, name: name.trim() || undefined, config: configBody(fields, values), test },
        }),
      ),
    onSuccess: (inst) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "channels"] });
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
function PriorityInput({ appId, inst, label }: { appId: number; inst: Instance; label: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [value, setValue] = useState(String(inst.priority ?? 0));
  useEffect(() => setValue(String(inst.priority ?? 0)), [inst.priority]);
  const m = useMutation({
    mutationFn: (priority: number) =>
      data(
        api.PATCH("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", {
          params: { path: { appId, channel: inst.channel!, providerInstance: inst.id! } },
          body: { priority },
        }),
      ),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "channels"] });
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
function ChannelRoutes({ appId, channel, instances, dev }: { appId: number; channel: Channel; instances: Instance[]; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = ["apps", appId, "channels", channel, "routes"];
  const name = channelNames[channel] ?? channel;
  const routes = useQuery({
    queryKey: key,
    queryFn: () => data(api.GET("/v1/apps/{appId}/channels/{channel}/routes", { params: { path: { appId, channel } } })),
  });
  const change = useMutation({
    mutationFn: (v: { route: Route; body: { enabled?: boolean; failover?: boolean } }) =>
      data(api.PUT("/v1/routes/{routeId}", { params: { path: { routeId: v.route.id! } }, body: v.body })),
    onError: (e) => toast((e as Error).message),
    // Only the fields this change set are taken from the answer (no refetch): a second
    // change made before this answer came keeps its own value on screen.
    onSuccess: (r, v) => {
      const changed = Object.fromEntries(Object.keys(v.body).map((k) => [k, r[k as keyof Route]]));
      qc.setQueryData<Route[]>(key, (list) => list?.map((x) => (x.id === r.id ? { ...x, ...changed } : x)));
      toast(`Route ${r.name} saved`);
    },
  });
  const remove = useMutation({
    mutationFn: (r: Route) => data(api.DELETE("/v1/routes/{routeId}", { params: { path: { routeId: r.id! } } })),
    onSuccess: (_d, r) => {
      qc.invalidateQueries({ queryKey: key });
      toast(`Route ${r.name} deleted`);
    },
  });
  // A switch moves at once (in the same event, so a checkbox never jumps back); a refused
  // change puts it back.
  const update = (route: Route, body: { enabled?: boolean; failover?: boolean }) => {
    const before = qc.getQueryData<Route[]>(key);
    qc.setQueryData<Route[]>(key, (list) => list?.map((r) => (r.id === route.id ? { ...r, ...body } : r)));
    change.mutate({ route, body }, { onError: () => qc.setQueryData(key, before) });
  };
  const instName = (id: number) => instances.find((i) => i.id === id)?.name ?? `#${id}`;
  const hid = `routes-${channel}-h`;
  return (
    <section className="card" aria-labelledby={hid}>
      <h2 id={hid}>Routes: {name}</h2>
      <p className="muted small">
        The first enabled route (lowest priority first) whose conditions hold decides which instances a message goes through, in order. Without one, every enabled
        instance is tried by its priority.
      </p>
      {routes.isPending ? (
        <Loading label={`Loading the routes of ${name}`} />
      ) : routes.isError ? (
        <ErrorState error={routes.error} retry={() => routes.refetch()} />
      ) : routes.data.length === 0 ? (
        <Empty title={`No routes on ${name}`} />
      ) : (
        <table className="table" aria-label={`Routes of ${name}`}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Priority</th>
              <th scope="col">Instances, in order</th>
              <th scope="col">Conditions</th>
              <th scope="col">Failover</th>
              <th scope="col">Status</th>
              {dev && (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {routes.data.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.priority}</td>
                <td>{(r.providerInstanceIds ?? []).map(instName).join(" → ")}</td>
                <td>{(r.conditions ?? []).length ? (r.conditions ?? []).map((c) => `${c.field} ${c.operator}${c.value === undefined ? "" : " " + JSON.stringify(c.value)}`).join("; ") : "always"}</td>
                <td>
                  {dev ? (
                    <Checkbox
                      aria-label={`Failover on route ${r.name}`}
                      checked={r.failover ?? false}
                      onChange={(on) => update(r, { failover: on })}
                    />
                  ) : r.failover ? (
                    "Yes"
                  ) : (
                    "No"
                  )}
                </td>
                <td>
                  <span className={r.enabled ? "badge badge-ok" : "badge"}>{r.enabled ? "Enabled" : "Disabled"}</span>
                </td>
                {dev && (
                  <td className="actions">
                    <Button variant="ghost" aria-label={`${r.enabled ? "Disable" : "Enable"} route ${r.name}`} onClick={() => update(r, { enabled: !r.enabled })}>
                      {r.enabled ? "Disable" : "Enable"}
                    </Button>
                    <ConfirmButton
                      label={`Delete route ${r.name}`}
                      title={`Delete the route ${r.name}?`}
                      description="Messages it matched go through the next matching route, or every enabled instance by priority."
                      action="Delete route"
                      onConfirm={() => remove.mutateAsync(r)}
                    >
                      Delete
                    </ConfirmButton>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dev && <RouteForm appId={appId} channel={channel} instances={instances} />}
    </section>
  );
}

function RouteForm({ appId, channel, instances }: { appId: number; channel: Channel; instances: Instance[] }) {
  const qc = useQueryClient();
  const toast = useToast();
  const name = channelNames[channel] ?? channel;
  const [routeName, setRouteName] = useState("");
  const [priority, setPriority] = useState("0");
  const [failover, setFailover] = useState(true);
  const [order, setOrder] = useState<string[]>(() => instances.slice(0, 1).map((i) => String(i.id)));
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST("/v1/apps/{appId}/channels/{channel}/routes", {
          params: { path: { appId, channel } },
          body: {
            name: routeName.trim(),
            priority: Number(priority) || 0,
            failover,
            enabled: true,
            providerInstanceIds: order.filter(Boolean).map(Number),
          },
        }),
      ),
    onSuccess: (r) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "channels", channel, "routes"] });
      toast(`Route ${r.name} added`);
      setRouteName("");
    },
  });
  const errs = create.isError ? fieldErrors(create.error, ["name", "priority", "providerInstanceIds", "failover"]) : {};
  const slots = Math.min(instances.length, Math.max(1, order.filter(Boolean).length + 1));
  return (
    <form
      className="route-form"
      aria-label={`New route on ${name}`}
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>New route on {name}</h3>
      <FormError errors={errs[""]} />
      <Field label="Route name" value={routeName} onChange={(e) => setRouteName(e.target.value)} errors={errs.name} placeholder="EU customers" maxLength={100} />
      <Field label="Route priority" type="number" step={1} value={priority} onChange={(e) => setPriority(e.target.value)} errors={errs.priority} hint="Lower is evaluated first." />
      <fieldset className="field">
        <legend>Instances, in the order tried</legend>
        {Array.from({ length: slots }, (_, i) => (
          <InstanceSlot
            key={i}
            label={i === 0 ? "First instance" : `Instance ${i + 1}`}
            value={order[i] ?? ""}
            options={instances.filter((x) => x.id === Number(order[i]) || !order.includes(String(x.id)))}
            optional={i > 0}
            onChange={(v) => setOrder((o) => (v ? [...o.slice(0, i), v, ...o.slice(i + 1)] : o.slice(0, i)))}
          />
        ))}
        {errs.providerInstanceIds && (
          <p className="field-error" role="alert">
            {errs.providerInstanceIds.join(". ")}
          </p>
        )}
      </fieldset>
      <div className="field">
        <label>
          <input type="checkbox" checked={failover} onChange={(e) => setFailover(e.target.checked)} /> Fail over to the next instance when one fails
        </label>
      </div>
      <Button type="submit" busy={create.isPending}>
        Add route
      </Button>
      <p className="hint">Conditions (on data, the user, the category or the template) are set through the API: POST /v1/apps/{"{appId}"}/channels/{channel}/routes.</p>
    </form>
  );
}

function InstanceSlot({ label, value, options, optional, onChange }: { label: string; value: string; options: Instance[]; optional: boolean; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <Label.Root htmlFor={id}>{label}</Label.Root>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{optional ? "(none)" : "Choose an instance"}</option>
        {options.map((i) => (
          <option key={i.id} value={String(i.id)}>
            {i.name}
          </option>
        ))}
      </select>
    </div>
  );
}
