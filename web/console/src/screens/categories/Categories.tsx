// Categories: the app's notification categories (what users switch on and off per channel
// in their preferences): list, create, rename, delete, mark critical, set channel defaults.
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { Empty, ErrorState, Loading } from "../../ui/kit";
import { EditDefaults, StartsOff } from "./CategoryDefaults";
import { atLeast, useClients, type App } from "../queries";
import { useCategories } from "./api";
import { CreateCategory, CriticalToggle, DeleteCategory, RenameCategory } from "./CategoryDialogs";

/** Categories lists, creates, renames and deletes the app's categories. */
export default function Categories() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  useEffect(() => {
    document.title = `Categories · ${app.name} · Herald`;
  }, [app.name]);
  const list = useCategories(appId);

  return (
    <>
      <h1>Categories</h1>
      <p className="muted">
        A notification names its category; each user switches categories on and off per channel in their preferences.{" "}
        <span id="critical-note">Critical notifications ignore opt-outs</span>: mark security alerts, receipts and one-time codes critical.
      </p>
      {dev && <CreateCategory appId={appId} />}
      {list.isPending || clients.isPending ? (
        <Loading label="Loading the categories" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title="No categories yet">
          <p className="muted">Create one above, or from your backend through the developer API.</p>
        </Empty>
      ) : (
        <section className="card" aria-labelledby="cats-h">
          <h2 id="cats-h">Categories of {app.name}</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">Critical</th>
                <th scope="col">Channel defaults</th>
                <th scope="col">Created</th>
                {dev && (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>
                    <code>{c.identifier}</code>
                  </td>
                  <td>
                    <CriticalToggle appId={appId} cat={c} dev={dev} />
                  </td>
                  <td>
                    <StartsOff cat={c} />
                  </td>
                  <td>{c.createdAt ? new Date(c.createdAt).toLocaleDateString() : ""}</td>
                  {dev && (
                    <td className="actions">
                      <EditDefaults appId={appId} cat={c} />
                      <RenameCategory appId={appId} cat={c} />
                      <DeleteCategory appId={appId} cat={c} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
