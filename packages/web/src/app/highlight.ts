import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * The code highlighter, loaded only when a message has a fenced code block naming its language
 * (`import('./highlight')` in MarkdownView): highlight.js with the languages teams paste most.
 */
for (const [name, language] of Object.entries({ bash, css, diff, go, java, javascript, json, python, rust, sql, typescript, xml, yaml })) hljs.registerLanguage(name, language);

/** Highlights each `<code class="language-…">` of `root` whose language is known; highlight.js escapes what it emits. */
export function highlightCode(root: HTMLElement): void {
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
    const language = /language-([\w+-]+)/.exec(code.className)?.[1];
    if (!language || !hljs.getLanguage(language) || code.dataset.highlighted === 'yes') continue;
    code.innerHTML = hljs.highlight(code.textContent ?? '', { language, ignoreIllegals: true }).value;
    code.classList.add('hljs');
    code.dataset.highlighted = 'yes';
  }
}
