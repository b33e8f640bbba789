// Templates: the app's templates with their per-channel editors, its email layouts and its
// translations, one tab each (the tab is in the URL: ?tab=layouts).
import * as Tabs from "@radix-ui/react-tabs";
import { useEffect } from "react";
import { useOutletContext, useSearchParams } from "react-router-dom";
import { Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { Layouts } from "./Layouts";
import { TemplateList } from "./TemplateList";
import { Translations } from "./Translations";

export default function Templates() {
  const app = useOutletContext<App>();
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") ?? "templates";
  useEffect(() => {
    document.title = "Templates · Herald";
  }, []);
  if (clients.isPending) return <Loading label="Loading templates" />;
  return (
    <>
      <h1>Templates</h1>
      <Tabs.Root value={tab} onValueChange={(v) => setParams(v === "templates" ? {} : { tab: v })} className="tabs">
        <Tabs.List aria-label="Templates, layouts and translations" className="tab-list">
          <Tabs.Trigger value="templates" className="tab">
            Templates
          </Tabs.Trigger>
          <Tabs.Trigger value="layouts" className="tab">
            Email layouts
          </Tabs.Trigger>
          <Tabs.Trigger value="translations" className="tab">
            Translations
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="templates" className="tab-panel">
          <TemplateList app={app} dev={dev} />
        </Tabs.Content>
        <Tabs.Content value="layouts" className="tab-panel">
          <Layouts app={app} dev={dev} />
        </Tabs.Content>
        <Tabs.Content value="translations" className="tab-panel">
          <Translations app={app} dev={dev} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
