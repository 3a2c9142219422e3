import { parseSearchQuery } from '@aviary/protocol';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { failureText, methods, type Channel, type Conversation } from '../api/client';
import { FormError } from './FormError';
import { Modal } from './Modal';
import { SearchResults } from './SearchResults';
import { searchHelp, type SearchMatch } from './searchResults';
import './search.css';

const PAGE = 20;

/**
 * Ctrl/Cmd+F, or "Search messages" in the quick switcher: `search.messages` over everything the person
 * can see, the results grouped by chat with the matched words marked, a page at a time.
 */
export function SearchDialog({ conversations, initialQuery, onClose }: { conversations: Conversation[] | undefined; initialQuery?: string; onClose: () => void }) {
  const [text, setText] = useState(initialQuery ?? '');
  const [searched, setSearched] = useState<string>();
  const [matches, setMatches] = useState<SearchMatch[]>();
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [publicChannels, setPublicChannels] = useState<Channel[]>([]);
  // Only the latest search's answers are shown: an older one that comes late is dropped.
  const latest = useRef(0);

  const run = useCallback((query: string, after?: string) => {
    const ticket = ++latest.current;
    // A new search refused takes the last one's results with it (a further page refused keeps those shown).
    const refused = (why: string) => {
      setError(why);
      if (after !== undefined) return;
      setMatches(undefined);
      setSearched(undefined);
      setCursor(undefined);
    };
    // The method's own parser: a query it would refuse is explained here, without asking the server.
    const parsed = parseSearchQuery(query);
    if (!parsed.ok) {
      refused(parsed.problem);
      return;
    }
    setBusy(true);
    setError(undefined);
    methods.search.messages({ query, limit: PAGE, ...(after === undefined ? {} : { cursor: after }) }).then(
      (page) => {
        if (ticket !== latest.current) return;
        setSearched(query);
        setMatches((shown) => [...(after === undefined ? [] : (shown ?? [])), ...page.matches]);
        setCursor(page.nextCursor);
        setBusy(false);
      },
      (failure: unknown) => {
        if (ticket !== latest.current) return;
        refused(failureText(failure));
        setBusy(false);
      },
    );
  }, []);

  useEffect(() => {
    if (initialQuery?.trim()) run(initialQuery.trim());
  }, [initialQuery, run]);
  // The names of public channels the person is not in, for the matches found there.
  const wantsPublic = matches?.some((match) => match.joinable) ?? false;
  useEffect(() => {
    if (wantsPublic) methods.channels.listPublic().then((answer) => setPublicChannels(answer.channels.map((entry) => entry.channel)), () => undefined);
  }, [wantsPublic]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (query) run(query);
  };

  return (
    <Modal title="Search messages" onClose={onClose} className="search-modal">
      <form className="search-form" role="search" onSubmit={submit}>
        <input
          type="search"
          aria-label="Search messages"
          placeholder="Words, &quot;a phrase&quot;, in:#channel, from:@person…"
          value={text}
          maxLength={1000}
          data-autofocus
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy || !text.trim()}>
          Search
        </button>
      </form>
      <details className="search-help">
        <summary>Search filters</summary>
        <dl>
          {searchHelp.map(([example, meaning]) => (
            <div key={example}>
              <dt>
                <code>{example}</code>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
      </details>
      <FormError text={error} />
      {busy && matches === undefined && <p className="page-message">Searching…</p>}
      {matches !== undefined && searched !== undefined && (
        <SearchResults matches={matches} query={searched} conversations={conversations} publicChannels={publicChannels} onOpen={onClose} onError={setError} />
      )}
      {cursor !== undefined && searched !== undefined && (
        <div className="modal-actions">
          <button type="button" className="secondary" disabled={busy} onClick={() => run(searched, cursor)}>
            More results
          </button>
        </div>
      )}
    </Modal>
  );
}
