import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { dangerousUrls, markupVectors } from '../../serviceml/test/xssCorpus.js';
import { renderMarkdown } from '../src/app/markdown.js';

/** Every element markdown.ts may emit; anything else in its HTML would be markup someone typed. */
const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'em', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'span']);
const ALLOWED_ATTRIBUTES = new Set(['href', 'target', 'rel', 'class', 'start', 'data-user-id']);

interface Element {
  name: string;
  attribs: Record<string, string>;
  children?: Element[];
  type: string;
}

function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (nodes: Element[]) => {
    for (const node of nodes) {
      if (node.type === 'tag' || node.type === 'script' || node.type === 'style') found.push(node);
      if (node.children) walk(node.children);
    }
  };
  walk(parseDocument(html).children as unknown as Element[]);
  return found;
}

describe('message text as Markdown', () => {
  it('renders what people type in chat', () => {
    expect(renderMarkdown('**bold** *it* ~~gone~~ `code`')).toBe('<p><strong>bold</strong> <em>it</em> <s>gone</s> <code>code</code></p>\n');
    expect(renderMarkdown('line one\nline two')).toBe('<p>line one<br>\nline two</p>\n');
    expect(renderMarkdown('```ts\nconst a = 1;\n```')).toBe('<pre><code class="language-ts">const a = 1;\n</code></pre>\n');
    expect(renderMarkdown('see https://example.com/a')).toBe('<p>see <a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">https://example.com/a</a></p>\n');
    expect(renderMarkdown('[the notes](https://example.com/notes) or <mailto:ann@example.com>')).toContain('<a href="mailto:ann@example.com"');
    // Only absolute http, https and mailto URLs make links: another scheme, or a path, stays text.
    for (const text of ['<svg:script>', '[x](ms-msdt:run)', '[x](/c/elsewhere)', '<file:///etc/passwd>']) expect(renderMarkdown(text), text).not.toContain('<a ');
  });

  it('shows @channel and @here as mentions where the server reads them so, and nowhere else', () => {
    expect(renderMarkdown('@channel standup in 5, (@here too)')).toBe('<p><span class="broadcast-mention">@channel</span> standup in 5, (<span class="broadcast-mention">@here</span> too)</p>\n');
    expect(renderMarkdown('> @here read this')).toContain('<span class="broadcast-mention">@here</span>');
    for (const text of ['mail@channel.example', '@channels', '@here-and-now', '`@channel`']) expect(renderMarkdown(text), text).not.toContain('broadcast-mention');
  });

  it('marks the people a message names with their current names, in its Markdown and never in code', () => {
    const bob = { userId: 'u:bbbbbbbbbbbbbbbb', label: 'Bob', name: 'Bob Baker' };
    const bobby = { userId: 'u:cccccccccccccccc', label: 'Bob Bobby', name: 'Bob <b>Bobby</b>' };
    expect(renderMarkdown('@Bob please run `npm test` and ping @Bob Bobby, @here', [bob, bobby])).toBe(
      '<p><span class="sml-mention" data-user-id="u:bbbbbbbbbbbbbbbb">@Bob Baker</span> please run <code>npm test</code> and ping ' +
        '<span class="sml-mention" data-user-id="u:cccccccccccccccc">@Bob &lt;b&gt;Bobby&lt;/b&gt;</span>, <span class="broadcast-mention">@here</span></p>\n',
    );
    expect(renderMarkdown('**@Bob** `@Bob`', [bob])).toBe('<p><strong><span class="sml-mention" data-user-id="u:bbbbbbbbbbbbbbbb">@Bob Baker</span></strong> <code>@Bob</code></p>\n');
    // A name that reads like @here is the person's, not everyone's.
    expect(renderMarkdown('hi @here', [{ userId: 'u:dddddddddddddddd', label: 'here', name: 'Here Person' }])).not.toContain('broadcast-mention');
    // Someone not named stays text.
    expect(renderMarkdown('@Carol, hi', [bob])).toBe('<p>@Carol, hi</p>\n');
  });

  it('emits only its own elements and attributes for every vector of the XSS corpus, raw or as a link', () => {
    const inputs = [
      ...markupVectors,
      ...dangerousUrls.flatMap((url) => [`[click](${url})`, `<${url}>`, url, `![x](${url})`, `[x]: ${url}\n\n[x]`]),
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '# not a heading\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    ];
    // Each also as a person's label and name, the label in the text (a name is anyone's to choose).
    const renderings = inputs.flatMap((input) => [
      [input, renderMarkdown(input)],
      [input, renderMarkdown(`hi @${input} and ${input}`, [{ userId: 'u:aaaaaaaaaaaaaaaa', label: input, name: input }])],
    ]);
    for (const [input, html] of renderings) {
      for (const element of elements(html!)) {
        expect(ALLOWED_TAGS.has(element.name), `${element.name} from ${JSON.stringify(input)}`).toBe(true);
        for (const [name, value] of Object.entries(element.attribs)) {
          expect(ALLOWED_ATTRIBUTES.has(name), `${name} from ${JSON.stringify(input)}`).toBe(true);
          if (name === 'href') expect(value, JSON.stringify(input)).toMatch(/^(https?:\/\/|mailto:)/);
        }
      }
    }
  });
});
