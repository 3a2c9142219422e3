/** Throughput of what the server does per message with ServiceML: validate, then render HTML and text. */

import { parseServiceML, renderServiceMLToHtml, renderServiceMLToText, validateServiceML, type RenderOptions } from '../src/index.js';
import { isFlatValidDocument } from '../src/quick-accept.js';

const names: RenderOptions = { userName: (userId) => (userId === 'u:abcdefghijklmnop' ? 'Ada Lovelace' : undefined) };

/** A build notification of about 2 KiB: text, formatting, links, mentions and actions. */
export function typicalDocument(): string {
  const row = (index: number): string =>
    `<b>Step ${index}</b> finished in <i>${index * 7} s</i> &amp; passed. ` +
    `Logs: <a href="https://ci.example.com/builds/1234/steps/${index}?view=full&amp;tail=200">step ${index}</a><br/>`;
  return (
    '<serviceml>Build <strong>#1234</strong> of <em>aviary/main</em> for ' +
    '<user userId="u:abcdefghijklmnop">Ada</user> &#x2705;<br/>' +
    Array.from({ length: 12 }, (_, index) => row(index + 1)).join('') +
    '<action id="rerun" type="sendEvent">Re-run</action> ' +
    '<action id="details" type="openWidget" url="https://ci.example.com/widget/1234" desktopType="sidebar" mobileType="modal">Details</action>' +
    '</serviceml>'
  );
}

export async function benchServiceML(durationMs = 1_000): Promise<{ opsPerSec: number }> {
  const source = typicalDocument();
  const { operations, elapsed } = runFor(durationMs, 50, () => {
    const result = parseServiceML(source);
    if (!result.ok) throw new Error(`benchmark document is invalid: ${JSON.stringify(result.problems)}`);
    renderServiceMLToHtml(result.ast, names);
    renderServiceMLToText(result.ast, names);
  });
  return { opsPerSec: Math.round((operations * 1_000) / elapsed) };
}

/** Runs `operation` again and again for `durationMs`: how many times, in how many ms. */
function runFor(durationMs: number, batch: number, operation: () => void): { operations: number; elapsed: number } {
  let operations = 0;
  const started = Date.now();
  let elapsed = 0;
  // The clock is read once per batch so that reading it does not weigh on the measurement.
  while (elapsed < durationMs) {
    for (let i = 0; i < batch; i++) operation();
    operations += batch;
    elapsed = Date.now() - started;
  }
  return { operations, elapsed };
}

/**
 * The typical document with its attributes in single quotes: valid, but outside the shape that
 * validateServiceML checks with one pattern (src/quick-accept.ts), so it shows the tokenizer's cost.
 */
export function singleQuotedDocument(): string {
  return typicalDocument().replace(/="([^"]*)"/g, "='$1'");
}

/**
 * Throughput of validation alone (validateServiceML, which builds no tree), what the server pays per
 * chat.sendMessage carrying the document (issue #4: it should be no visible share of a sendMessage).
 * µs per validation is 1e6 / opsPerSec.
 */
export async function benchValidate(durationMs = 1_000, source = typicalDocument()): Promise<{ opsPerSec: number; microsecondsPerOp: number }> {
  const { operations, elapsed } = runFor(durationMs, 200, () => {
    const result = validateServiceML(source);
    if (!result.ok) throw new Error(`benchmark document is invalid: ${JSON.stringify(result.problems)}`);
  });
  const opsPerSec = Math.round((operations * 1_000) / elapsed);
  return { opsPerSec, microsecondsPerOp: Math.round((1e7 * elapsed) / (operations * 1_000)) / 10 };
}

/** Documents of up to 16 KiB that almost match the quick-accept pattern: where a backtracking pattern would blow up. */
export function longNearMisses(): string[] {
  const doc = (body: string) => `<serviceml>${body}</serviceml>`;
  return [
    doc('<b>x</b>'.repeat(2_000)).replace(/<\/serviceml>$/, '<b>'),
    `<serviceml>${'&amp;'.repeat(3_000)}&amp`,
    `<serviceml><a href="https://${'a-'.repeat(5_000)}">`,
    `<serviceml><a href="https://${'a.'.repeat(5_000)}/${'&amp;'.repeat(500)}<">x</a></serviceml>`,
    `<serviceml>${'text '.repeat(3_000)}<br>`,
    `<serviceml>${'<br/>'.repeat(3_000)}`,
  ];
}

/**
 * The slowest long near miss, in ms per rejection: a linear scan of 16 KiB stays well under a
 * millisecond, backtracking would take seconds.
 */
export function benchNearMisses(repeats = 50): { worstMs: number } {
  let worstMs = 0;
  for (const source of longNearMisses()) {
    const started = Date.now();
    for (let i = 0; i < repeats; i++) {
      if (isFlatValidDocument(source)) throw new Error('a near miss was accepted');
    }
    worstMs = Math.max(worstMs, (Date.now() - started) / repeats);
  }
  return { worstMs };
}
