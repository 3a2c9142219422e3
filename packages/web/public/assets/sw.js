/*
 * Aviary's service worker: only Web Push. It shows what the server pushed (a direct message or a mention,
 * while no tab of the person had a stream open) and, on a click, brings a tab to the message's
 * permalink (an open one of this origin, told by a message, or a new one).
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(typeof data.title === 'string' ? data.title : 'Aviary', {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.uid === 'string' ? data.uid : undefined,
      icon: '/assets/favicon.svg',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data && event.notification.data.url ? event.notification.data.url : '/';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        open.postMessage({ type: 'aviary.openMessage', path });
        return open.focus();
      }
      return self.clients.openWindow(path);
    })(),
  );
});
