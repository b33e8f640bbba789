import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from "react-router-dom";
import { ApiError } from "./api/client";
import { SessionProvider } from "./auth/session";
import { AppLayout, ClientHome, NotFound, RequireSession } from "./screens/Shell";
import { Loading, Toaster } from "./ui/kit";
import { startTheme } from "./ui/theme";
import "./styles.css";

startTheme();

// Screens load lazily: the first load carries the shell and the session only.
const auth = (name: "SignIn" | "SignUp" | "Verify" | "ForgotPassword" | "ResetPassword" | "TwoFactor" | "Invitation" | "CodeHostCallback"): RouteObject["lazy"] =>
  async () => ({ Component: (await import("./screens/auth"))[name] });
const screen = (load: () => Promise<{ default: React.ComponentType }>): RouteObject["lazy"] => async () => ({
  Component: (await load()).default,
});

const routes: RouteObject[] = [
  { path: "/signin", lazy: auth("SignIn") },
  { path: "/signup", lazy: auth("SignUp") },
  { path: "/verify", lazy: auth("Verify") },
  { path: "/two-factor", lazy: auth("TwoFactor") },
  { path: "/forgot-password", lazy: auth("ForgotPassword") },
  { path: "/reset-password", lazy: auth("ResetPassword") },
  { path: "/invitations/:code", lazy: auth("Invitation") },
  { path: "/auth/codehost", lazy: auth("CodeHostCallback") },
  {
    element: <RequireSession />,
    children: [
      { path: "/", lazy: screen(() => import("./screens/account/Home")) },
      { path: "/onboarding", lazy: screen(() => import("./screens/account/Onboarding")) },
      { path: "/account", lazy: screen(() => import("./screens/account/Account")) },
      { path: "/clients/:clientId", element: <ClientHome /> },
      {
        path: "/apps/:appId",
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="get-started" replace /> },
          { path: "get-started", lazy: screen(() => import("./screens/settings/GetStarted")) },
          { path: "settings", lazy: screen(() => import("./screens/settings/Settings")) },
          { path: "channels", lazy: screen(() => import("./screens/channels/Channels")) },
          { path: "templates", lazy: screen(() => import("./screens/templates")) },
          { path: "team", lazy: screen(() => import("./screens/team/Team")) },
          { path: "logs", lazy: screen(() => import("./screens/logs/Logs")) },
          { path: "activity", lazy: screen(() => import("./screens/activity/Activity")) },
          { path: "activity/:requestId", lazy: screen(() => import("./screens/activity/RequestPage")) },
          { path: "users", lazy: screen(() => import("./screens/users/Users")) },
          { path: "topics", lazy: screen(() => import("./screens/topics/Topics")) },
          { path: "topics/:topicKey", lazy: async () => ({ Component: (await import("./screens/topics/Topics")).TopicDetail }) },
          { path: "workflows", lazy: screen(() => import("./screens/workflows/WorkflowList")) },
          { path: "workflows/:identifier", lazy: screen(() => import("./screens/workflows/Designer")) },
          { path: "schedules", lazy: screen(() => import("./screens/ops/Schedules")) },
          { path: "environments", lazy: screen(() => import("./screens/ops/Environments")) },
          { path: "analytics", lazy: screen(() => import("./screens/ops/Analytics")) },
          { path: "usage", lazy: screen(() => import("./screens/ops/Usage")) },
          { path: "categories", lazy: screen(() => import("./screens/categories/Categories")) },
          { path: "webhooks", lazy: screen(() => import("./screens/webhooks/Webhooks")) },
          { path: "webhooks/:webhookId", lazy: screen(() => import("./screens/webhooks/WebhookDetail")) },
          { path: "users/:identifier", lazy: async () => ({ Component: (await import("./screens/users/UserDetail")).UserDetail }) },
        ],
      },
      { path: "*", element: <NotFound /> },
    ],
  },
];

const router = createBrowserRouter(routes, {
  future: { v7_relativeSplatPath: true, v7_fetcherPersist: true, v7_normalizeFormMethod: true, v7_partialHydration: true, v7_skipActionErrorRevalidation: true },
});
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <Toaster>
          <RouterProvider router={router} fallbackElement={<Loading />} future={{ v7_startTransition: true }} />
        </Toaster>
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
