import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  parseServiceML,
  renderServiceMLToHtml,
  renderServiceMLToText,
  serializeServiceML,
  type RenderOptions,
  type ServiceMLNode,
  type ServiceMLRoot,
} from '../src/index.js';
import { serviceMLTreeArbitrary } from './arbitraries.js';

const USER = 'u:abcdefghijklmnop';
const names: RenderOptions = { userName: (userId) => (userId === USER ? 'Ada Lovelace' : undefined) };
const noNames: RenderOptions = { userName: () => undefined };

function parsed(source: string): ServiceMLRoot {
  const result = parseServiceML(source);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.ast;
}

describe('renderServiceMLToHtml', () => {
  it('renders every element', () => {
    const ast = parsed(
      `<serviceml>Hi <b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><br/>` +
        `<a href="https://example.com/?a=1&amp;b=2">link</a> <user userId="${USER}">old name</user> ` +
        `<action id="ok" type="openWidget" url="https://app.example/w" desktopType="modal" sendContext="true">Open</action></serviceml>`,
    );
    expect(renderServiceMLToHtml(ast, names)).toBe(
      'Hi <b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><br>' +
        '<a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">link</a> ' +
        `<span class="sml-mention" data-user-id="${USER}">@Ada Lovelace</span> ` +
        '<button type="button" class="sml-action" data-action-id="ok" data-action-type="openWidget" ' +
        'data-action-url="https://app.example/w" data-action-desktop-type="modal" data-action-send-context="true">Open</button>',
    );
  });

  it('escapes text and attribute values', () => {
    const ast = parsed(`<serviceml>&lt;script&gt;alert("x" &amp; 'y')&lt;/script&gt;<action id="&quot;&gt;&lt;img src=x&gt;" type="sendEvent">go</action></serviceml>`);
    expect(renderServiceMLToHtml(ast, names)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;' +
        '<button type="button" class="sml-action" data-action-id="&quot;&gt;&lt;img src=x&gt;" data-action-type="sendEvent">go</button>',
    );
  });

  it('shows a mention by current name, else its text without a doubled @, else the id', () => {
    const mention = (inner: string) => parsed(`<serviceml><user userId="u:zzzzzzzzzzzzzzzz">${inner}</user></serviceml>`);
    expect(renderServiceMLToHtml(mention('@bob'), noNames)).toContain('>@bob</span>');
    expect(renderServiceMLToHtml(mention('&lt;b&gt;'), noNames)).toContain('>@&lt;b&gt;</span>');
    expect(renderServiceMLToHtml(mention(''), noNames)).toContain('>@u:zzzzzzzzzzzzzzzz</span>');
  });

  it('renders a hand-built link with a bad href as its text only', () => {
    const ast: ServiceMLRoot = {
      type: 'root',
      children: [{ type: 'element', name: 'a', attributes: { href: 'javascript:alert(1)' }, children: [{ type: 'text', value: 'x' }] }],
    };
    expect(renderServiceMLToHtml(ast, names)).toBe('x');
  });
});

describe('renderServiceMLToText', () => {
  it.each([
    ['<serviceml>a<br/>b</serviceml>', 'a\nb'],
    ['<serviceml><a href="https://x.org/">docs</a></serviceml>', 'docs (https://x.org/)'],
    ['<serviceml><a href="https://x.org/">https://x.org/</a></serviceml>', 'https://x.org/'],
    ['<serviceml><a href="mailto:a@b.org">a@b.org</a></serviceml>', 'a@b.org'],
    ['<serviceml><a href="https://x.org/"></a></serviceml>', 'https://x.org/'],
    [`<serviceml>hi <user userId="${USER}">x</user></serviceml>`, 'hi @Ada Lovelace'],
    ['<serviceml><user userId="u:zzzzzzzzzzzzzzzz">@bob</user></serviceml>', '@bob'],
    ['<serviceml><b>bold</b> <action id="a" type="sendEvent">Do it</action> &lt;3</serviceml>', 'bold Do it <3'],
  ])('%s → %j', (source, expected) => {
    expect(renderServiceMLToText(parsed(source), names)).toBe(expected);
  });
});

const allowedHtmlElements = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 'br', 'span', 'button']);
const allowedHtmlAttributes = new Set(['href', 'rel', 'target', 'class', 'type']);

/** Elements a tree renders to, counted the way an HTML parser should find them. */
function countElements(nodes: readonly ServiceMLNode[]): number {
  return nodes.reduce((sum, node) => (node.type === 'text' ? sum : sum + 1 + countElements(node.children)), 0);
}

describe('random valid trees (property)', () => {
  it('serialize, validate, parse back to the same tree, and render only allowed HTML', () => {
    fc.assert(
      fc.property(serviceMLTreeArbitrary, fc.option(fc.string(), { nil: undefined }), (tree, userName) => {
        const source = serializeServiceML(tree);
        const result = parseServiceML(source);
        expect(result.ok ? [] : result.problems).toEqual([]);
        if (!result.ok) return;
        expect(result.ast).toEqual(tree);

        const html = renderServiceMLToHtml(result.ast, { userName: () => userName });
        let opened = 0;
        const parser = new Parser({
          onopentag(name, attributes) {
            opened++;
            expect(allowedHtmlElements.has(name), `element <${name}>`).toBe(true);
            for (const [attribute, value] of Object.entries(attributes)) {
              expect(allowedHtmlAttributes.has(attribute) || attribute.startsWith('data-'), `attribute ${attribute}`).toBe(true);
              expect(attribute.startsWith('on')).toBe(false);
              if (attribute === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:)/i);
            }
          },
        });
        parser.write(html);
        parser.end();
        // Injected markup would show up as extra elements.
        expect(opened).toBe(countElements(result.ast.children));
        expect(typeof renderServiceMLToText(result.ast, { userName: () => userName })).toBe('string');
      }),
      { numRuns: 500 },
    );
  });
});
