import type { RenderOptions, UserElement } from './types.js';

/**
 * The name a mention shows, without the "@": the user's current name, else the element's text
 * (authors often write the "@" themselves; it is dropped so that it is not shown twice), else the id.
 */
export function mentionName(element: UserElement, options: RenderOptions): string {
  const current = options.userName(element.attributes.userId);
  if (current !== undefined && current !== '') return current;
  const fallback = element.children.map((child) => child.value).join('').trim().replace(/^@/, '');
  return fallback === '' ? element.attributes.userId : fallback;
}
