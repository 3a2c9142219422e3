import { useEffect, useMemo, useRef } from 'react';
import { renderMarkdown, type NamedPerson } from './markdown';

/**
 * A message's text rendered as Markdown (markdown.ts: no raw HTML, checked links). Code blocks that
 * name their language are highlighted once the highlighter has loaded: it is a chunk of its own, fetched
 * the first time such a block is shown, so that the page's first script stays small. `named`: the people
 * the message mentions, marked in the text.
 */
export function MarkdownView({ text, named }: { text: string; named?: readonly NamedPerson[] | undefined }) {
  const html = useMemo(() => renderMarkdown(text, named), [text, named]);
  const element = useRef<HTMLDivElement>(null);
  const hasCode = html.includes('<code class="language-');
  useEffect(() => {
    if (!hasCode) return;
    let live = true;
    void import('./highlight').then(({ highlightCode }) => {
      if (live && element.current) highlightCode(element.current);
    });
    return () => {
      live = false;
    };
  }, [html, hasCode]);
  // A code block wider than the message scrolls sideways: by keyboard too, so it takes the focus.
  const hasBlock = html.includes('<pre');
  useEffect(() => {
    if (!hasBlock) return;
    for (const pre of element.current?.querySelectorAll('pre') ?? []) {
      if (pre.scrollWidth <= pre.clientWidth) continue;
      pre.tabIndex = 0;
      pre.setAttribute('role', 'region');
      pre.setAttribute('aria-label', 'Code (scrolls sideways)');
    }
  }, [html, hasBlock]);
  // The HTML comes from markdown-it with raw HTML off: the only markup is what the Markdown asked for.
  // `dir="auto"`: a message in Hebrew or Arabic reads right to left.
  return <div ref={element} className="message-text markdown" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />;
}
