/**
 * A browser's walk through single sign-on, by plain HTTP with a cookie jar per origin: Aviary's start,
 * the provider's sign-in form, and back. `toCallback` stops at the callback URL, so that a test can
 * tamper with it, replay it or bring it to another browser before `finish` delivers it.
 */
export class SsoBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async send(url: string, init: RequestInit): Promise<Response> {
    const { origin } = new URL(url);
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  /** From Aviary's start to the provider's redirect back, signing in there as `login`: the callback URL, not yet visited. */
  async toCallback(aviaryUrl: string, teamId: string, login: string): Promise<URL> {
    let response = await this.get(`${aviaryUrl}/api/sso/start?team=${encodeURIComponent(teamId)}`);
    let location = locationOf(response, aviaryUrl);
    if (location.origin === new URL(aviaryUrl).origin) throw new Error(`Aviary refused to start: ${location.href}`);
    for (let hops = 0; hops < 10; hops++) {
      if (location.origin === new URL(aviaryUrl).origin) return location;
      response = await this.get(location.href);
      if (response.status === 200) {
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`the provider's page has no form: ${html.slice(0, 300)}`);
        response = await this.send(new URL(action.replace(/&amp;/g, '&'), location).href, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ prompt: 'login', login, password: 'anything' }).toString(),
        });
      }
      location = locationOf(response, location.href);
    }
    throw new Error('the provider never sent the browser back');
  }

  /** Delivers the callback to Aviary: where it sends the browser next (home, or the sign-in page with a refusal). */
  async finish(callback: URL): Promise<URL> {
    return locationOf(await this.get(callback.href), callback.href);
  }
}

function locationOf(response: Response, base: string): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect from ${base}, got ${response.status}`);
  return new URL(location, base);
}
