import { validateServiceML } from '@aviary/serviceml';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { mrkdwn } from '../../src/core/webhooks/mrkdwn.js';
import { dialectOf } from '../../src/core/webhooks/post.js';
import { convertSlackPayload } from '../../src/core/webhooks/slack.js';

/** The Slack-shaped payloads of docs/reference/webhooks.md, converted without a server (the HTTP path is webhooks.test.ts). */
describe('mrkdwn', () => {
  it.each([
    ['*bold* and _italic_', '<b>bold</b> and <i>italic</i>', 'bold and italic'],
    ['~gone~ and `code`', 'gone and code', 'gone and code'],
    ['a*b*c and snake_case_name', 'a*b*c and snake_case_name', 'a*b*c and snake_case_name'],
    ['*_both_*', '<b><i>both</i></b>', 'both'],
    ['<https://x.example/a?b=1&amp;c=2|the link>', '<a href="https://x.example/a?b=1&amp;c=2">the link</a>', 'the link (https://x.example/a?b=1&c=2)'],
    ['<javascript:alert(1)|click>', 'click', 'click'],
    ['hi <@U123|maya> and <!here> in <#C1|ops>', 'hi maya and @here in ops', 'hi maya and @here in ops'],
    // A raw <…> is one of Slack's tokens: not a URL, so its label (here its text) is shown.
    ['1 &lt; 2 &amp;&amp; <b>', '1 &lt; 2 &amp;&amp; b', '1 < 2 && b'],
    ['line\nbreak', 'line<br/>break', 'line\nbreak'],
    ['```\ncode block\n```', 'code block<br/>', 'code block\n'],
  ])('%j', (source, xml, plain) => {
    const rendered = mrkdwn(source);
    expect(rendered).toEqual({ xml, plain });
    expect(validateServiceML(`<serviceml>${rendered.xml}</serviceml>`).ok).toBe(true);
  });

  it('never makes a document ServiceML refuses, however the markers interleave', () => {
    for (const source of ['*x _y* z_', '_*x*_', '*a <https://e.example|b*> c*', '`*`_`', '<<>>', '*<!here>*', '_a_b_c_']) {
      expect(validateServiceML(`<serviceml>${mrkdwn(source).xml}</serviceml>`).ok, source).toBe(true);
    }
  });
});

describe('which dialect', () => {
  it.each([
    [{ text: 'x' }, 'aviary', true],
    [{ text: 'x', serviceml: '<serviceml>x</serviceml>' }, 'aviary', false],
    [{ text: 'x', attachments: [{ title: 't', color: '#ffffff' }] }, 'aviary', false],
    [{ text: 'x', attachments: [{ title: 't', fallback: 'f' }] }, 'slack', false],
    [{ text: 'x', username: 'ci' }, 'slack', false],
    [{ blocks: [] }, 'slack', false],
  ])('%j → %s', (payload, dialect, textOnly) => expect(dialectOf(payload)).toEqual({ dialect, textOnly }));
});

describe('Slack payloads', () => {
  it('maps the attachments: the first as the card, the others into the body; colours by name or hex', () => {
    const converted = convertSlackPayload({
      attachments: [
        { fallback: 'Build failed', color: 'danger', pretext: 'CI says:', title: 'Build 9', text: 'red', fields: [{ title: 'Branch', value: 'main' }], footer: 'ci', image_url: 'https://ci.example/shot.png' },
        { color: 'F0A', title: 'Second', title_link: 'https://ci.example/2', text: 'more', actions: [{ type: 'button', text: 'Logs', url: 'https://ci.example/logs' }] },
      ],
    });
    expect(converted).toEqual({
      text: 'CI says:\nSecond (https://ci.example/2)\nmore\nLogs (https://ci.example/logs)',
      serviceml: '<serviceml>CI says:<br/><b><a href="https://ci.example/2">Second</a></b><br/>more<br/><a href="https://ci.example/logs">Logs</a></serviceml>',
      attachments: [{ title: 'Build 9', description: 'red\nBranch: main\nci', color: '#a30200', views: { image: { original: { src: 'https://ci.example/shot.png' } } } }],
    });
  });

  it('posts an attachment with text alone, the text then being its words', () => {
    expect(convertSlackPayload({ attachments: [{ text: 'Deploy *done*', color: 'good' }] })).toEqual({
      text: 'Deploy done',
      attachments: [{ description: 'Deploy done', color: '#2eb886' }],
    });
  });

  it('takes text literally with mrkdwn: false, and the blocks’ text when there is no text', () => {
    expect(convertSlackPayload({ text: '*not bold*', mrkdwn: false })).toEqual({ text: '*not bold*' });
    expect(convertSlackPayload({ blocks: [{ type: 'section', text: { type: 'plain_text', text: 'only blocks' } }] })).toEqual({ text: 'only blocks' });
  });

  it.each([
    [{}, 'text'],
    [{ blocks: [{ type: 'rich_text' }] }, 'text'],
    [{ text: 5 }, 'text'],
    [{ text: 'x', blocks: 'nope' }, 'blocks'],
    [{ text: 'x', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }, 'blocks'],
    [{ text: 'x', blocks: [{ type: 'section', text: 'plain' }] }, 'blocks[0].text'],
    [{ text: 'x', attachments: [1] }, 'attachments[0]'],
    [{ blocks: Array.from({ length: 50 }, () => ({ type: 'section', text: { type: 'mrkdwn', text: `*big* ${'é'.repeat(3000)}` } })) }, 'blocks'],
  ])('refuses payload %# naming %s', (payload, parameter) => {
    let thrown: unknown;
    try {
      convertSlackPayload(payload as Record<string, unknown>);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).context.parameter).toBe(parameter);
  });
});
