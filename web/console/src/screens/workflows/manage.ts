// Pure helpers of managing workflows (rename, duplicate, archive, delete, cancel a run).

/** The identifier suffix the server gives a duplicate when none is asked for. */
export const copySuffix = "-copy";

/** copyIdentifier is the identifier proposed for a duplicate ("welcome" → "welcome-copy"). */
export function copyIdentifier(identifier: string): string {
  return identifier + copySuffix;
}

/** copyName is the name proposed for a duplicate. */
export function copyName(name: string): string {
  return `${name} (copy)`;
}

/** running counts the runs of a test run that a cancel would stop. */
export function running(runs: readonly { status: string }[] | undefined): number {
  return (runs ?? []).filter((r) => r.status === "running").length;
}

/** cancelled says what a cancel did, for the screen reader and the eye. */
export function cancelledText(res: { cancelled: number; failed: number }): string {
  if (res.cancelled === 0 && res.failed === 0) return "Nothing was running any more.";
  const parts = [`${res.cancelled} run${res.cancelled === 1 ? "" : "s"} cancelled`];
  if (res.failed > 0) parts.push(`${res.failed} could not be stopped in Temporal (marked cancelled)`);
  return parts.join("; ") + ".";
}
