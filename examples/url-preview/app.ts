import { createApp, type AviaryApp } from '@aviary/sdk';

export interface UrlPreviewOptions {
  appId: string;
  appSecret: string;
  /** The domain whose links get a preview (register it as a preview domain of the app). */
  domain: string;
}

/** A preview for each link to `domain`: its path as the title, and a button to open it. */
export function urlPreview(options: UrlPreviewOptions): AviaryApp {
  const { domain, ...credentials } = options;
  return previewLinks(createApp(credentials), domain);
}

/** Makes `app` answer a preview for each link to `domain`. */
export function previewLinks(app: AviaryApp, domain: string): AviaryApp {
  app.preview(domain, async (event) => {
    const url = new URL(event.url);
    return {
      title: `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`,
      description: 'A page of our documentation',
      url: event.url,
    };
  });
  return app;
}
