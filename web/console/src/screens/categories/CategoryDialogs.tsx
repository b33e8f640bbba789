// CategoryDialogs: create a category, rename it, delete it and switch it critical.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { Checkbox } from "../../ui/confirm";
import { Button, Field, FormError, useToast } from "../../ui/kit";
import { keys } from "../../api/keys";
import { categoriesApi } from "./api";

type Category = components["schemas"]["CategoryEntity"];

export function CreateCategory({ appId }: { appId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [identifier, setIdentifier] = useState("");
  const [critical, setCritical] = useState(false);
  const m = useMutation({
    mutationFn: () =>
      categoriesApi.create(appId, { name: name.trim(), identifier: identifier.trim(), critical }),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: keys.categories.all(appId) });
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

export function RenameCategory({ appId, cat }: { appId: number; cat: Category }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(cat.name ?? "");
  const m = useMutation({
    mutationFn: () => categoriesApi.update(cat.id!, { name: name.trim() }),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: keys.categories.all(appId) });
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

export function DeleteCategory({ appId, cat }: { appId: number; cat: Category }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const m = useMutation({
    mutationFn: () => categoriesApi.remove(cat.id!),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: keys.categories.all(appId) });
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
export function CriticalToggle({ appId, cat, dev }: { appId: number; cat: Category; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = keys.categories.all(appId);
  const m = useMutation({
    mutationFn: (critical: boolean) => categoriesApi.update(cat.id!, { critical }),
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
