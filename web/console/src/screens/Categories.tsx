// Categories: the app's notification categories (what users switch on and off per channel
// in their preferences): list, create, rename, delete, mark critical, set channel defaults.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data, fieldErrors, type components } from "../api/client";
import { Checkbox } from "../ui/confirm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../ui/kit";
import { EditDefaults, StartsOff } from "./CategoryDefaults";
import { atLeast, useClients, type App } from "./queries";

type Category = components["schemas"]["CategoryEntity"];

/** Categories lists, creates, renames and deletes the app's categories. */
export default function Categories() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  useEffect(() => {
    document.title = `Categories · ${app.name} · Herald`;
  }, [app.name]);
  const list = useQuery({
    queryKey: ["apps", appId, "categories"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/categories", { params: { path: { appId } } })),
  });

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

function CreateCategory({ appId }: { appId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [identifier, setIdentifier] = useState("");
  const [critical, setCritical] = useState(false);
  const m = useMutation({
    mutationFn: () =>
      data(api.POST("/v1/apps/{appId}/categories", { params: { path: { appId } }, body: { name: name.trim(), identifier: identifier.trim(), critical } })),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "categories"] });
      toast(`Category ${c.name} created`);
      setName("");
      setIdentifier("");
      setCritical(false);
    },
  });
  const errs = m.isError ? fieldErrors(m.error, ["name", "identifier"]) : {};
  // A taken identifier is a conflict ("a category with identifier … already exists"): shown
  // next to the identifier too.
  const taken = (errs[""] ?? []).filter((e) => e.includes("identifier"));
  if (taken.length) {
    errs.identifier = [...(errs.identifier ?? []), ...taken];
    errs[""] = (errs[""] ?? []).filter((e) => !taken.includes(e));
  }
  return (
    <section className="card" aria-labelledby="new-cat-h">
      <h2 id="new-cat-h">New category</h2>
      <form
        className="inline-form"
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          m.mutate();
        }}
      >
        <FormError errors={errs[""]} />
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} errors={errs.name} placeholder="Promotions" maxLength={200} />
        <Field
          label="Identifier"
          value={identifier}
          onChange={(e) => setIdentifier(e.target.value)}
          errors={errs.identifier}
          placeholder="promotions"
          hint="Letters, digits, _ . : -; your backend sends it with each notification."
        />
        <label className="inline-check">
          <Checkbox checked={critical} onChange={setCritical} aria-describedby="critical-note" /> Critical
        </label>
        <Button type="submit" busy={m.isPending}>
          Create category
        </Button>
      </form>
    </section>
  );
}

function RenameCategory({ appId, cat }: { appId: number; cat: Category }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(cat.name ?? "");
  const m = useMutation({
    mutationFn: () => data(api.PUT("/v1/categories/{categoryId}", { params: { path: { categoryId: cat.id! } }, body: { name: name.trim() } })),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "categories"] });
      toast(`Renamed to ${c.name}`);
      setOpen(false);
    },
  });
  const errs = m.isError ? fieldErrors(m.error, ["name"]) : {};
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setName(cat.name ?? "");
        m.reset();
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={`Rename ${cat.name}`}>
          Rename
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Rename {cat.name}</Dialog.Title>
          <Dialog.Description className="muted">
            The identifier <code>{cat.identifier}</code> stays: notifications keep naming it.
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              m.mutate();
            }}
          >
            <FormError errors={errs[""]} />
            <Field label="New name" value={name} onChange={(e) => setName(e.target.value)} errors={errs.name} maxLength={200} />
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button variant="secondary" type="button">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" busy={m.isPending}>
                Save name
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DeleteCategory({ appId, cat }: { appId: number; cat: Category }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const m = useMutation({
    mutationFn: () => data(api.DELETE("/v1/categories/{categoryId}", { params: { path: { categoryId: cat.id! } } })),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["apps", appId, "categories"] });
      toast(`Category ${cat.name} deleted`);
      setOpen(false);
    },
  });
  return (
    <Dialog.Root open={open} onOpenChange={(o) => (setOpen(o), m.reset())}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" aria-label={`Delete ${cat.name}`}>
          Delete
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Delete {cat.name}?</Dialog.Title>
          <Dialog.Description className="muted">
            Users' preferences for it are deleted; notifications already sent keep their text but lose the category.
          </Dialog.Description>
          <FormError errors={m.error ? [(m.error as Error).message] : undefined} />
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </Dialog.Close>
            <Button variant="danger" busy={m.isPending} onClick={() => m.mutate()}>
              Delete category
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** CriticalToggle marks a category critical or not, at once; a refusal puts it back. */
function CriticalToggle({ appId, cat, dev }: { appId: number; cat: Category; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = ["apps", appId, "categories"];
  const m = useMutation({
    mutationFn: (critical: boolean) => data(api.PUT("/v1/categories/{categoryId}", { params: { path: { categoryId: cat.id! } }, body: { critical } })),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: key });
      toast(`${c.name} is ${c.critical ? "critical" : "no longer critical"}`);
    },
  });
  const set = (critical: boolean) => {
    const before = qc.getQueryData<Category[]>(key);
    qc.setQueryData<Category[]>(key, (list) => list?.map((c) => (c.id === cat.id ? { ...c, critical } : c)));
    m.mutate(critical, { onError: () => qc.setQueryData(key, before) });
  };
  return (
    <>
      <Checkbox
        aria-label={`Critical: ${cat.name}`}
        aria-describedby="critical-note"
        checked={!!cat.critical}
        disabled={!dev}
        aria-busy={m.isPending || undefined}
        onChange={set}
      />
      <FormError errors={m.error ? [(m.error as Error).message] : undefined} />
    </>
  );
}
