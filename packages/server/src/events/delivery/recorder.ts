import type { EventsContext } from '../context.js';
import type { FinishedAttempt } from './attemptDelivery.js';
import { logRecordedBatch } from './deliveryLog.js';
import { recordAttempts, type RecordedBatch } from './recordAttempts.js';

/**
 * Records finished attempts a few at a time: one transaction for all the attempts that finished since
 * the last `flush()` (the worker flushes every `recordBatchDelayMs` while attempts finish; `add` flushes
 * at once when `recordBatchMax` wait), instead of one per attempt. Each attempt's row and its event's
 * new state are written together (`recordAttempts`); until then the event stays leased to this worker,
 * so no one attempts it meanwhile. Should the process die first, the lease runs out and the event is
 * attempted again: at least once, never delivered without its record. Batches are written one after
 * another, in the order the attempts finished, and logged once written.
 */
export class AttemptRecorder {
  private pending: FinishedAttempt[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: EventsContext,
    /** Told what a batch did (apps paused, held events released), after it committed. */
    private readonly onRecorded: (batch: RecordedBatch) => void,
  ) {}

  add(attempt: FinishedAttempt): void {
    this.pending.push(attempt);
    if (this.pending.length >= this.ctx.events.settings.recordBatchMax) void this.flush();
  }

  /** Writes what is pending now; resolves once it (and every batch before it) is written or has failed. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: FinishedAttempt[]): Promise<void> {
    let recorded: RecordedBatch;
    try {
      recorded = await recordAttempts(this.ctx, batch);
    } catch (error) {
      if (batch.length === 1) {
        // Unrecorded: the claim's lease runs out and the event is attempted again.
        this.ctx.log.error({ err: error, eventId: batch[0].event.id }, 'event delivery: recording an attempt failed');
        return;
      }
      this.ctx.log.warn({ err: error, attempts: batch.length }, 'event delivery: recording a batch of attempts failed; recording them one by one');
      // One bad attempt (or a passing failure) should not leave a whole batch to be delivered again.
      for (const attempt of batch) await this.write([attempt]);
      return;
    }
    logRecordedBatch(this.ctx.log, recorded);
    this.onRecorded(recorded);
  }
}
