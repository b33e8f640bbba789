// useOptimisticSwitch: a switch that moves at once in the query cache while its change is
// saved; the server's answer replaces the cache, a refusal puts the old answer back.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useToast } from "../../ui/kit";

export function useOptimisticSwitch<T, V>(
  key: QueryKey,
  save: (v: V) => Promise<T>,
  apply: (cached: T | undefined, v: V) => T | undefined,
  said: (v: V) => string,
) {
  const qc = useQueryClient();
  const toast = useToast();
  const m = useMutation({
    mutationFn: save,
    onSuccess: (answer, v) => {
      qc.setQueryData(key, answer);
      toast(said(v));
    },
  });
  // Applied in the same event as the click, so the switch never jumps back.
  const toggle = (v: V) => {
    const before = qc.getQueryData<T>(key);
    qc.setQueryData<T | undefined>(key, (cached) => apply(cached, v));
    m.mutate(v, { onError: () => qc.setQueryData(key, before) });
  };
  return { toggle, mutation: m };
}
