import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { failureText, methods } from '../api/client';
import { dayLabel, formatTime } from './format';
import { useWorkspace } from './workspaceContext';
import './audit.css';

type Entry = Awaited<ReturnType<typeof methods.audit.list>>['entries'][number];

const PAGE = 50;
/** Rows asked for at once by the export; audit.list answers at most 200. */
const EXPORT_PAGE = 200;

/**
 * "Audit log", for team admins (audit.list): the newest rows of who did what, when and from where,
 * filtered by the start of the action's name, with "Load more" and "Export JSON lines", which downloads
 * every row of the filter, fetched a page at a time, one row per line as the method answers it.
 */
export function AuditLogSection() {
  const { me } = useWorkspace();
  const id = useId();
  const [action, setAction] = useState('');
  const [applied, setApplied] = useState('');
  const [entries, setEntries] = useState<Entry[]>();
  const [nextCursor, setNextCursor] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [exporting, setExporting] = useState(false);
  const filter = applied === '' ? {} : { action: applied };

  const load = useCallback(async (cursor?: string) => {
    try {
      const page = await methods.audit.list({ ...(applied === '' ? {} : { action: applied }), limit: PAGE, ...(cursor ? { cursor } : {}) });
      setEntries((shown) => [...(cursor ? (shown ?? []) : []), ...page.entries]);
      setNextCursor(page.nextCursor);
      setProblem(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, [applied]);
  useEffect(() => void load(), [load]);

  const exportLines = async () => {
    setExporting(true);
    try {
      const lines: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await methods.audit.list({ ...filter, limit: EXPORT_PAGE, ...(cursor ? { cursor } : {}) });
        for (const entry of page.entries) lines.push(JSON.stringify(entry));
        cursor = page.nextCursor;
      } while (cursor);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob(lines.map((line) => `${line}\n`), { type: 'application/x-ndjson' }));
      link.download = `audit-log${applied ? `-${applied.replace(/[^\w.-]/g, '')}` : ''}.jsonl`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setExporting(false);
    }
  };

  const when = (at: number) => {
    const day = dayLabel(at, me.timeZone, Date.now());
    return day === 'Today' ? formatTime(at, me.timeZone) : `${day} ${formatTime(at, me.timeZone)}`;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(action.trim());
  };

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Audit log</h3>
      <form className="audit-filter" onSubmit={submit} role="search" aria-label="Filter the audit log">
        <label>
          Action starts with
          <input value={action} onChange={(event) => setAction(event.target.value)} placeholder="session. or app.created" maxLength={100} />
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        <button type="button" className="secondary" disabled={exporting || entries === undefined} onClick={() => void exportLines()}>
          Export JSON lines
        </button>
      </form>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {entries === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="field-hint">Nothing recorded{applied ? ` for actions starting with “${applied}”` : ''}.</p>
      ) : (
        <div className="audit-table-wrap" role="region" aria-label="Recorded actions" tabIndex={0}>
          <table className="audit-table" aria-labelledby={`${id}-title`}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="audit-nowrap">{when(entry.at)}</td>
                  <td className="audit-actor">{entry.actorName ?? (entry.actorUserId !== null ? entry.actorUserId : entry.address === null ? 'command line' : 'not signed in')}</td>
                  <td>
                    <code className="audit-nowrap">{entry.action}</code>
                    {Object.keys(entry.details).length > 0 && <div className="audit-details">{detailsText(entry.details)}</div>}
                  </td>
                  <td>
                    {entry.targetKind} <code>{entry.targetId}</code>
                  </td>
                  <td className="audit-nowrap">{entry.address ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor && (
        <div className="modal-actions">
          <button type="button" className="secondary" onClick={() => void load(nextCursor)}>
            Load more
          </button>
        </div>
      )}
    </section>
  );
}

/** An entry's facts on one line: `from: user · to: admin`; nested values as JSON. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}
