// Routes: a channel's routes (an ordered failover chain of provider instances): the list
// with its enable and failover switches, and the form that adds one.
import * as Label from "@radix-ui/react-label";
import { channelNames } from "../../api/channels";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { Checkbox, ConfirmButton } from "../../ui/confirm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { keys } from "../../api/keys";
import { channelsApi, useRoutes } from "./api";
import type { Channel } from "../../api/channels";

type Instance = components["schemas"]["AppChannelProviderEntity"];
type Route = components["schemas"]["RouteEntity"];

export function ChannelRoutes({ appId, channel, instances, dev }: { appId: number; channel: Channel; instances: Instance[]; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = keys.channels.routes(appId, channel);
  const name = channelNames[channel] ?? channel;
  const routes = useRoutes(appId, channel);
  const change = useMutation({
    mutationFn: (v: { route: Route; body: { enabled?: boolean; failover?: boolean } }) =>
      channelsApi.updateRoute(v.route.id!, v.body),
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
    mutationFn: (r: Route) => channelsApi.deleteRoute(r.id!),
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

export function RouteForm({ appId, channel, instances }: { appId: number; channel: Channel; instances: Instance[] }) {
  const qc = useQueryClient();
  const toast = useToast();
  const name = channelNames[channel] ?? channel;
  const [routeName, setRouteName] = useState("");
  const [priority, setPriority] = useState("0");
  const [failover, setFailover] = useState(true);
  const [order, setOrder] = useState<string[]>(() => instances.slice(0, 1).map((i) => String(i.id)));
  const create = useMutation({
    mutationFn: () =>
      channelsApi.createRoute(appId, channel, {
        name: routeName.trim(),
        priority: Number(priority) || 0,
        failover,
        enabled: true,
        providerInstanceIds: order.filter(Boolean).map(Number),
      }),
    onSuccess: (r) => {
      qc.invalidateQueries({ queryKey: keys.channels.routes(appId, channel) });
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
