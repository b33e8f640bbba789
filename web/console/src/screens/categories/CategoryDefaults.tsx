// The app's default per category × channel: which channels a category starts off on for
// users who never chose (a user's own switch always overrides it).
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { components } from "../../api/client";
import { channelName, channels } from "../../api/channels";
import { Checkbox } from "../../ui/confirm";
import { Button, FormError, useToast } from "../../ui/kit";
import { keys } from "../../api/keys";
import { categoriesApi } from "./api";

type Category = components["schemas"]["CategoryEntity"];
type Defaults = NonNullable<Category["channelDefaults"]>;

/** offChannels lists, by name, the channels a category starts off on. */
export function offChannels(cat: Category): string[] {
  const d = (cat.channelDefaults ?? {}) as Record<string, boolean | undefined>;
  return channels.filter((c) => d[c] === false).map(channelName);
}

/** StartsOff shows the channels a category starts off on ("All on" when none). */
export function StartsOff({ cat }: { cat: Category }) {
  const off = offChannels(cat);
  return off.length ? <span>Off: {off.join(", ")}</span> : <span className="muted">All on</span>;
}

/** EditDefaults opens a dialog with one switch per channel: on means users start with it on. */
export function EditDefaults({ appId, cat }: { appId: number; cat: Category }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const initial = () => {
    const d = (cat.channelDefaults ?? {}) as Record<string, boolean | undefined>;
    return Object.fromEntries(channels.map((c) => [c, d[c] !== false])) as Record<string, boolean>;
  };
  const [on, setOn] = useState(initial);
  const m = useMutation({
    mutationFn: () => categoriesApi.update(cat.id!, { channelDefaults: on as Defaults }),
    onSuccess: (c) => {
      qc.invalidateQueries({ queryKey: keys.categories.all(appId) });
      const off = offChannels(c);
      toast(off.length ? `${c.name} starts off on ${off.join(", ")}` : `${c.name} starts on every channel`);
      setOpen(false);
    },
  });
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setOn(initial());
        m.reset();
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={`Channel defaults of ${cat.name}`}>
          Defaults
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Channel defaults of {cat.name}</Dialog.Title>
          <Dialog.Description className="muted">
            What a user who never chose gets. Turn a channel off and users start with it off until they turn it on in their
            preferences; a user's own choice always wins.{cat.critical ? " This category is critical: it is delivered whatever the switches say." : ""}
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              m.mutate();
            }}
          >
            <FormError errors={m.error ? [(m.error as Error).message] : undefined} />
            <fieldset className="check-grid">
              <legend>Starts on</legend>
              {channels.map((c) => (
                <label key={c} className="inline-check">
                  <Checkbox checked={on[c] ?? true} onChange={(v) => setOn({ ...on, [c]: v })} /> {channelName(c)}
                </label>
              ))}
            </fieldset>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button variant="secondary" type="button">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" busy={m.isPending}>
                Save defaults
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
