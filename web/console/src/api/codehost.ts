// Names of code hosts as the sign-in page shows them (no DOM, no network: unit-tested).

const known: Record<string, string> = { github: "GitHub", gitea: "Gitea", gitlab: "GitLab", forgejo: "Forgejo", codeberg: "Codeberg" };

/** codeHostLabel names a code host as its button says it ("github" → "GitHub"). */
export function codeHostLabel(name: string): string {
  const n = name.trim();
  return known[n.toLowerCase()] ?? (n ? n[0]!.toUpperCase() + n.slice(1) : "your code host");
}
