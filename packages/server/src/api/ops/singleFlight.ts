/** Callers that come while a run is under way get its result instead of starting another. */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () =>
    (running ??= run().finally(() => {
      running = undefined;
    }));
}
