/** How the app layer's handlers pick their events: command and action ids, message text, link hosts. */

/** A string matches the whole value (`whole`) or any part of it (`part`); a RegExp is tested against it. */
export function matchesText(pattern: string | RegExp, value: string, how: 'whole' | 'part'): boolean {
  if (typeof pattern !== 'string') {
    pattern.lastIndex = 0;
    return pattern.test(value);
  }
  return how === 'whole' ? value === pattern : value.includes(pattern);
}

/** `example.com` matches that host only; `*.example.com` its subdomains, not itself (as preview domains do). */
export function matchesPreviewDomain(domain: string, url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const wanted = domain.toLowerCase();
  if (wanted.startsWith('*.')) return host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1;
  return host === wanted;
}
