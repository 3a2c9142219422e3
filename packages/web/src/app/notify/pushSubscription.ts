import { methods } from '../../api/client';
import { navigate } from '../route';

/** Where the service worker is served (the built assets); its scope is its own folder: it only handles pushes. */
const WORKER = '/assets/sw.js';

const pushSupported = (): boolean => 'serviceWorker' in navigator && 'PushManager' in window && window.isSecureContext;

function base64urlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.register(WORKER, { scope: '/assets/' });
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker && worker.state !== 'activated') {
    await new Promise<void>((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
  }
  return registration;
}

/**
 * Subscribes this browser to Web Push for the person (push.subscribe), once notifications are allowed, so
 * that a closed tab still notifies. Answers whether it could; a browser without a push service (or
 * offline) simply does without.
 */
export async function subscribeToPush(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  try {
    const registration = await activeRegistration();
    const { publicKey } = await methods.push.getPublicKey();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(publicKey) }));
    const { endpoint, keys } = subscription.toJSON();
    if (!endpoint || !keys?.p256dh || !keys.auth) return false;
    await methods.push.subscribe({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
    return true;
  } catch {
    return false;
  }
}

/** Signing out: this browser stops receiving the person's pushes. */
export async function unsubscribeFromPush(): Promise<void> {
  if (!pushSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('/assets/');
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return;
    await methods.push.unsubscribe({ endpoint: subscription.endpoint }).catch(() => undefined);
    await subscription.unsubscribe();
  } catch {
    // Nothing subscribed, or the browser refused: nothing to undo.
  }
}

/** A click on a pushed notification while a tab is open: the service worker asks this tab to open the message. */
export function followPushClicks(): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; path?: unknown } | null;
    if (data?.type === 'aviary.openMessage' && typeof data.path === 'string' && data.path.startsWith('/')) navigate(data.path);
  };
  navigator.serviceWorker.addEventListener('message', onMessage);
  return () => navigator.serviceWorker.removeEventListener('message', onMessage);
}
