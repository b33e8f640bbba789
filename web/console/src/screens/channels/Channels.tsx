// Channels and providers: the app's provider instances per channel (connection test,
// enable / disable, priority), the routes of each channel (which instances a send goes
// through, in order, failing over), the catalogue of every provider kind, and an instance
// form generated from the provider's JSON Schema (secrets masked and never sent back).
import { channelNames } from "../../api/channels";
import { useEffect, useState } from "react";
import { useOutletContext } from "react-router-dom";
import type { components } from "../../api/client";
import { Button, Empty, ErrorState, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { useInstances, useProviders } from "./api";
import { InstanceForm, InstanceRow } from "./Instances";
import { ChannelRoutes } from "./Routes";
import type { Channel } from "../../api/channels";

type Provider = components["schemas"]["ProviderEntity"];

export default function Channels() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const [adding, setAdding] = useState<Provider | null>(null);
  useEffect(() => {
    document.title = "Channels · Herald";
  }, []);
  const catalogue = useProviders();
  const instances = useInstances(appId);

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
