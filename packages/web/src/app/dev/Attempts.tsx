import { useEffect, useState } from 'react';
import type { DeliveryAttempt } from '@aviary/protocol';
import { methods } from '../../api/client';
import { problemOf } from './problems';

export const time = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

export /** One event's attempts: when, retry number, HTTP status, latency, error and the first 1 KiB of the answer. */
function Attempts({ appId, eventId }: { appId: string; eventId: string }) {
  const [attempts, setAttempts] = useState<DeliveryAttempt[]>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    methods.deliveries.listAttempts({ appId, eventId }).then(
      (answer) => setAttempts(answer.attempts),
      (error: unknown) => setFailure(problemOf(error).message),
    );
  }, [appId, eventId]);
  if (failure) return <p className="form-error">{failure}</p>;
  if (!attempts) return <p className="dev-hint">Loading attempts…</p>;
  if (attempts.length === 0) return <p className="dev-hint">No attempt yet.</p>;
  return (
    <table className="dev-table dev-attempts" aria-label={`Attempts of ${eventId}`}>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Retry</th>
          <th scope="col">HTTP status</th>
          <th scope="col">Latency</th>
          <th scope="col">Outcome</th>
          <th scope="col">Error</th>
          <th scope="col">Answer (first 1 KiB)</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.id}>
            <td>{time(attempt.startedAt)}</td>
            <td>{attempt.retryNum}</td>
            <td>{attempt.status ?? 'no answer'}</td>
            <td>{attempt.durationMs} ms</td>
            <td>{attempt.outcome}</td>
            <td>{[attempt.reason, attempt.error].filter(Boolean).join(': ')}</td>
            <td>
              <pre className="dev-snippet">{attempt.responseSnippet ?? ''}</pre>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
