/**
 * Slack's mrkdwn as Aviary's text (Markdown, with `@Name` mentions listed in the message's `mentions`):
 *
 * - `<@U123>`, `<@U123|name>` → `@First Last` of the person U123 became, who is added to the mentions;
 * - `<#C123|name>`, `<#C123>` → `#name`;
 * - `<!here>`, `<!channel>`, `<!everyone>` → `@here`, `@channel`, `@everyone`; `<!subteam^S1|@team>` and
 *   `<!date^…|fallback>` → their text;
 * - `<https://…|text>` → `[text](https://…)`, `<https://…>` → the URL, `<mailto:a@b|a@b>` → `a@b`;
 * - `*bold*` → `**bold**`, `~struck~` → `~~struck~~` (`_italic_` and code are the same in both);
 * - `&lt;`, `&gt;`, `&amp;` → `<`, `>`, `&`.
 */
export interface MrkdwnContext {
  /** The imported person a Slack user id became: their Aviary id and the name they show. */
  person(slackId: string): { id: string; name: string } | undefined;
  /** A Slack channel id's name. */
  channelName(slackId: string): string | undefined;
}

export function convertMrkdwn(text: string, context: MrkdwnContext): { text: string; mentions: string[] } {
  const mentions = new Set<string>();
  const linked = text.replace(/<([^<>]*)>/g, (_whole, inner: string) => {
    const [target, label] = splitLabel(inner);
    if (target.startsWith('@')) {
      const person = context.person(target.slice(1));
      if (person) {
        mentions.add(person.id);
        return `@${person.name}`;
      }
      return `@${label ?? target.slice(1)}`;
    }
    if (target.startsWith('#')) return `#${label ?? context.channelName(target.slice(1)) ?? target.slice(1)}`;
    if (target.startsWith('!')) {
      const special = target.slice(1);
      if (['here', 'channel', 'everyone'].includes(special)) return `@${special}`;
      return label ?? `@${special}`;
    }
    if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
    if (label !== undefined && label !== target) return `[${label}](${target})`;
    return target;
  });
  const styled = linked
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, '$1**$2**')
    .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, '$1~~$2~~');
  return { text: styled.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'), mentions: [...mentions] };
}

function splitLabel(inner: string): [string, string | undefined] {
  const bar = inner.indexOf('|');
  return bar === -1 ? [inner, undefined] : [inner.slice(0, bar), inner.slice(bar + 1)];
}
