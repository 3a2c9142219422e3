import type { Integrations } from '@aviary/protocol';
import type { Problem } from './problems';
import { Field } from './problems';

/**
 * The home tab of the integrations editor (an Aviary extension): the widget's URL, or nothing. An empty
 * field removes the home tab; the server checks the URL (integrations.appHome.url names a refusal).
 */
export function AppHomeField(props: { draft: Integrations; setDraft: (next: Integrations) => void; problem: Problem | undefined; problemAt: string | undefined }) {
  const { draft, setDraft } = props;
  const path = 'integrations.appHome.url';
  return (
    <fieldset className="dev-item">
      <legend>Home tab</legend>
      <Field label="Home tab URL" path={path} hint="A widget shown when a person opens the app from the directory or the sidebar; empty: no home tab." problem={props.problem} problemAt={props.problemAt}>
        {(input) => (
          <input
            {...input}
            type="url"
            value={draft.appHome?.url ?? ''}
            onChange={(e) => {
              const { appHome: _, ...rest } = draft;
              setDraft(e.target.value === '' ? rest : { ...rest, appHome: { url: e.target.value } });
            }}
          />
        )}
      </Field>
    </fieldset>
  );
}
