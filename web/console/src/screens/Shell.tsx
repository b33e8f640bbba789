// The signed-in frame: header with the client and app switchers, the theme toggle and the
// account menu; navigation of the current app; the screen in the middle.
import * as Menu from "@radix-ui/react-dropdown-menu";
import { Suspense } from "react";
import { Link, NavLink, Navigate, Outlet, useLocation, useNavigate, useParams } from "react-router-dom";
import { useSession } from "../auth/session";
import { Button, ErrorState, Loading } from "../ui/kit";
import { ThemeToggle } from "../ui/theme";
import { useApp, useApps, useClients } from "./queries";
import { isInsecure, NotSecureBadge } from "../ui/insecure";

/** RequireSession shows its children to a signed-in user and sends others to sign in. */
export function RequireSession() {
  const { state } = useSession();
  const loc = useLocation();
  if (state.status === "loading") return <Loading label="Opening your session" />;
  if (state.status === "signedOut") return <Navigate to={`/signin?next=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  return (
    <div className="shell">
      <Header />
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </div>
  );
}

function Header() {
  const { state, signOut } = useSession();
  const navigate = useNavigate();
  const { appId } = useParams();
  const app = useApp(Number(appId));
  const clients = useClients();
  const clientId = appId ? app.data?.clientId : undefined;
  const client = clients.data?.find((c) => c.id === clientId);
  const apps = useApps(clientId);
  const email = state.status === "signedIn" ? state.user.email : "";
  return (
    <header className="topbar">
      <Link to="/" className="brand" aria-label="Herald home">
        <img src="/favicon.svg" alt="" width="24" height="24" /> Herald
      </Link>
      <nav aria-label="Switchers" className="switchers">
        <Menu.Root>
          <Menu.Trigger className="switcher" aria-label={`Team: ${client?.name ?? "choose"}`}>
            <span className="switcher-kind">Team</span> {client?.name ?? "Choose a team"} ▾
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="menu" align="start" sideOffset={4}>
              {clients.data?.map((c) => (
                <Menu.Item key={c.id} className="menu-item" onSelect={() => navigate(`/clients/${c.id}`)}>
                  {c.name} <span className="muted">{c.role}</span>
                </Menu.Item>
              ))}
              <Menu.Separator className="menu-sep" />
              <Menu.Item className="menu-item" onSelect={() => navigate("/onboarding")}>
                New team…
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
        {clientId !== undefined && (
          <Menu.Root>
            <Menu.Trigger className="switcher" aria-label={`App: ${app.data?.name ?? "choose"}${isInsecure(app.data) ? ", not secure" : ""}`}>
              <span className="switcher-kind">App</span> {app.data?.name ?? "Choose an app"} <NotSecureBadge app={app.data} /> ▾
            </Menu.Trigger>
            <Menu.Portal>
              <Menu.Content className="menu" align="start" sideOffset={4}>
                {apps.data?.map((a) => (
                  <Menu.Item key={a.id} className="menu-item" onSelect={() => navigate(`/apps/${a.id}/get-started`)}>
                    {a.name} <NotSecureBadge app={a} />
                  </Menu.Item>
                ))}
              </Menu.Content>
            </Menu.Portal>
          </Menu.Root>
        )}
      </nav>
      <div className="topbar-end">
        <ThemeToggle />
        <Menu.Root>
          <Menu.Trigger className="switcher" aria-label="Account">
            {email} ▾
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="menu" align="end" sideOffset={4}>
              <Menu.Item className="menu-item" onSelect={() => navigate("/account")}>
                Account and security
              </Menu.Item>
              <Menu.Item
                className="menu-item"
                onSelect={async () => {
                  await signOut().catch(() => {});
                  navigate("/signin", { replace: true });
                }}
              >
                Sign out
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </div>
    </header>
  );
}

/** ClientHome: /clients/:clientId opens the client's first app (or its onboarding). */
export function ClientHome() {
  const { clientId } = useParams();
  const apps = useApps(Number(clientId));
  if (apps.isError) return <ErrorState error={apps.error} retry={() => apps.refetch()} />;
  if (!apps.data) return <Loading label="Loading the apps" />;
  const first = apps.data[0];
  return <Navigate to={first ? `/apps/${first.id}/get-started` : `/onboarding?client=${clientId}`} replace />;
}

/** AppLayout: the app's navigation and its screens. */
export function AppLayout() {
  const { appId } = useParams();
  const app = useApp(Number(appId));
  if (app.isError) return <main className="page"><ErrorState error={app.error} retry={() => app.refetch()} /></main>;
  if (!app.data) return <Loading label="Loading the app" />;
  return (
    <div className="app-layout">
      <nav className="sidenav" aria-label="App">
        <NavLink to="get-started">Get started</NavLink>
        <NavLink to="settings">Settings</NavLink>
        <NavLink to="activity">Activity</NavLink>
        <NavLink to="logs">Message logs</NavLink>
        <NavLink to="users">Users</NavLink>
        <NavLink to="topics">Topics</NavLink>
        <NavLink to="categories">Categories</NavLink>
        <NavLink to="channels">Channels</NavLink>
        <NavLink to="templates">Templates</NavLink>
        <NavLink to="workflows">Workflows</NavLink>
        <NavLink to="schedules">Schedules</NavLink>
        <NavLink to="environments">Environments</NavLink>
        <NavLink to="webhooks">Webhooks</NavLink>
        <NavLink to="analytics">Analytics</NavLink>
        <NavLink to="usage">Usage and billing</NavLink>
        <NavLink to="team">Team</NavLink>
      </nav>
      <main className="page">
        <Suspense fallback={<Loading />}>
          <Outlet context={app.data} />
        </Suspense>
      </main>
    </div>
  );
}

export function NotFound() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Go to your apps</Link>
      </p>
      <Button variant="ghost" onClick={() => history.back()}>
        Go back
      </Button>
    </main>
  );
}
