import type { DeveloperApp, EventName, TestEventOverrides } from '@aviary/protocol';

/** The fields a test event may change, as the form keeps them (text; empty is left out). */
export interface TestEventForm {
  command: string;
  text: string;
  button: string;
  buttonId: string;
  url: string;
  chat: string;
  payload: string;
}

const buttonLabels = { appLauncherButton: 'launcherButton', chatTabButton: 'chatTabButton', attachmentPickerButton: 'attachmentPickerButton' } as const;

/** The app's own integration buttons, by the event's button kind, then an attachment's button. */
function ownButtons(app: DeveloperApp): Array<{ kind: string; label: string }> {
  const own = (Object.keys(buttonLabels) as Array<keyof typeof buttonLabels>)
    .filter((kind) => app.integrations[buttonLabels[kind]] !== undefined)
    .map((kind) => ({ kind, label: `${app.integrations[buttonLabels[kind]]!.name} (${kind})` }));
  return [...own, { kind: 'attachmentButton', label: 'An attachment’s button' }];
}

/** The form as it starts for an app: its own first command and button, so that its handlers answer. */
export function initialTestEventForm(app: DeveloperApp): TestEventForm {
  return { command: app.integrations.slashCommands[0]?.name ?? '', text: '', button: ownButtons(app)[0]!.kind, buttonId: '', url: '', chat: '', payload: '' };
}

/** What the route takes: the fields that apply to the event, or the payload (InvalidPayload when it is not a JSON object). */
export function overridesOf(name: EventName, form: TestEventForm): TestEventOverrides {
  const set = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const overrides: TestEventOverrides = { chat: set(form.chat) };
  if (form.payload.trim() !== '') {
    const payload: unknown = JSON.parse(form.payload);
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SyntaxError('the payload must be a JSON object: the event');
    overrides.payload = payload as Record<string, unknown>;
  }
  if (name === 'client.slashCommand') Object.assign(overrides, { command: set(form.command), text: form.text === '' ? undefined : form.text });
  if (name === 'client.pressButton') Object.assign(overrides, { button: form.button, buttonId: form.button === 'attachmentButton' ? set(form.buttonId) : undefined });
  if (name === 'chat.generateUrlPreview' || name === 'client.openAttachmentWidget') overrides.url = set(form.url);
  return Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as TestEventOverrides;
}

/** The fields of the chosen event: its own commands and buttons offered, a URL where one is needed, the chat, a payload. */
export function TestEventFields({ app, name, form, onChange }: { app: DeveloperApp; name: EventName; form: TestEventForm; onChange: (form: TestEventForm) => void }) {
  const field = (key: keyof TestEventForm) => ({ id: `dev-test-${key}`, value: form[key], onChange: (e: { target: { value: string } }) => onChange({ ...form, [key]: e.target.value }) });
  return (
    <div className="dev-filters">
      {name === 'client.slashCommand' && (
        <>
          <div className="dev-filter">
            <label htmlFor="dev-test-command">Command</label>
            <input {...field('command')} list="dev-test-commands" placeholder="deploy" />
            <datalist id="dev-test-commands">
              {app.integrations.slashCommands.map((command) => (
                <option key={command.name} value={command.name} />
              ))}
            </datalist>
          </div>
          <div className="dev-filter">
            <label htmlFor="dev-test-text">Text</label>
            <input {...field('text')} placeholder="docs --to production" />
          </div>
        </>
      )}
      {name === 'client.pressButton' && (
        <div className="dev-filter">
          <label htmlFor="dev-test-button">Button</label>
          <select {...field('button')}>
            {ownButtons(app).map((button) => (
              <option key={button.kind} value={button.kind}>
                {button.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {name === 'client.pressButton' && form.button === 'attachmentButton' && (
        <div className="dev-filter">
          <label htmlFor="dev-test-buttonId">Button id</label>
          <input {...field('buttonId')} placeholder="approve" />
        </div>
      )}
      {(name === 'chat.generateUrlPreview' || name === 'client.openAttachmentWidget') && (
        <div className="dev-filter">
          <label htmlFor="dev-test-url">{name === 'chat.generateUrlPreview' ? 'Link' : 'Widget URL'}</label>
          <input {...field('url')} type="url" placeholder="https://…" />
        </div>
      )}
      {name.startsWith('client.') && (
        <div className="dev-filter">
          <label htmlFor="dev-test-chat">Chat</label>
          <input {...field('chat')} placeholder="g:… or u:…" />
        </div>
      )}
      <div className="dev-filter dev-test-payload">
        <label htmlFor="dev-test-payload">Payload (JSON, instead of the example)</label>
        <textarea {...field('payload')} rows={2} placeholder='{"command": "deploy", …}' />
      </div>
    </div>
  );
}
