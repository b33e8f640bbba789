// Herald web push service worker. Serve this file from your app's own origin (service
// workers must be same-origin), e.g. at /herald-sw.js, and pass its URL to
// client.enableWebPush(). It shows each push as a notification and opens its URL on click.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : "" };
  }
  const n = data.notification || data;
  event.waitUntil(
    self.registration.showNotification(n.title || "Notification", {
      body: n.message || n.body || "",
      icon: n.icon || undefined,
      data: { url: n.url || "" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (url) event.waitUntil(self.clients.openWindow(url));
});
