// The "Not secure" badge of an app in user mode without secure mode (nor HMAC signatures):
// anyone holding its public API key can act as any of its users (docs/security.md).
import type { components } from "../api/schema.gen";

type AppLike = Pick<components["schemas"]["AppEntity"], "warnings">;

/** isInsecure: the app answers user calls for any user id sent with its public API key. */
export function isInsecure(app: AppLike | undefined): boolean {
  return Boolean(app?.warnings?.some((w) => w.code === "insecure_user_mode"));
}

export const notSecureLabel = "Not secure: anyone with the app's public API key can act as any of its users";

/** NotSecureBadge shows the badge for an insecure app, nothing otherwise. */
export function NotSecureBadge({ app }: { app: AppLike | undefined }) {
  if (!isInsecure(app)) return null;
  return (
    <span className="badge badge-insecure" role="img" aria-label={notSecureLabel} title={notSecureLabel}>
      Not secure
    </span>
  );
}
