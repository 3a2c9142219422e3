/** How the delivery engine behaves; the defaults follow reference §5.2, tests shorten the waits. */
export interface DeliverySettings {
  /** How often the worker looks for due events it was not woken for (retries, other processes' events). */
  pollIntervalMs: number;
  connectTimeoutMs: number;
  /** The whole answer (headers and body) must arrive within this; a 2xx within it is success. */
  answerTimeoutMs: number;
  /** A claim's lease; longer than any attempt, so only a crashed worker's claims ever expire. */
  leaseMs: number;
  /** Events of one app in flight at once, so one slow app holds at most this many slots. */
  laneConcurrency: number;
  /** Events in flight at once in this process, all apps together. */
  globalConcurrency: number;
  /** How long a `chat.generateUrlPreview` answer may take; the message is never held back for it. */
  urlPreviewTimeoutMs: number;
  /** How long a person's button press, command or action waits for the listener's answer. */
  clientEventTimeoutMs: number;
}

export const defaultDeliverySettings: DeliverySettings = {
  pollIntervalMs: 250,
  connectTimeoutMs: 5_000,
  answerTimeoutMs: 10_000,
  leaseMs: 60_000,
  laneConcurrency: 4,
  globalConcurrency: 64,
  urlPreviewTimeoutMs: 5_000,
  clientEventTimeoutMs: 10_000,
};

export function deliverySettings(overrides: Partial<DeliverySettings> = {}): DeliverySettings {
  const settings = { ...defaultDeliverySettings, ...overrides };
  if (settings.leaseMs <= settings.answerTimeoutMs) {
    throw new Error(`event leaseMs (${settings.leaseMs}) must exceed answerTimeoutMs (${settings.answerTimeoutMs}), or live deliveries would be claimed twice`);
  }
  return settings;
}

/** After this long of nothing but failures, an app's asynchronous delivery is paused (reference §5.2). */
export const pauseAfterFailingMs = 3 * 24 * 60 * 60 * 1000;

/** How much of a listener's answer an attempt record keeps. */
export const responseSnippetBytes = 1024;

export const userAgent = 'Aviary-Events/1';
