import { flockWidgetScriptGlobal } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';

/**
 * /widget.js (docs/reference/widgets.md): the script a widget page includes to call back into the client that
 * shows it. Each call posts one message to the parent window (the format is in docs/widgets.md); the
 * client, which knows which widget's iframe the message came from, turns it into
 * the method interactions.runWidgetAction. The script holds no secret and no state, so any origin may
 * load it and the parent filters by the sending iframe, not by origin. /flock.js is the same script
 * under Flock's global name (docs/flock-compatibility.md), for widget pages written for Flock.
 */
const widgetScriptFor = (global: string) => `/* Aviary widget script: window.${global}.openWidget / openBrowser / close. */
(function () {
  'use strict';
  function post(message) {
    var clean = {};
    for (var key in message) if (message[key] !== undefined) clean[key] = message[key];
    window.parent.postMessage(clean, '*');
  }
  window.${global} = Object.freeze({
    openWidget: function (url, desktopType, mobileType) {
      post({ type: 'aviary:openWidget', url: String(url), desktopType: desktopType, mobileType: mobileType });
    },
    openBrowser: function (url, sendContext) {
      post({ type: 'aviary:openBrowser', url: String(url), sendContext: sendContext === true });
    },
    close: function () {
      post({ type: 'aviary:close' });
    }
  });
})();
`;

export const widgetScriptSource = widgetScriptFor('Aviary');
export const flockWidgetScriptSource = widgetScriptFor(flockWidgetScriptGlobal);

export function registerWidgetScriptRoute(app: FastifyInstance): void {
  for (const [path, source] of [['/widget.js', widgetScriptSource], ['/flock.js', flockWidgetScriptSource]]) {
    app.get(path, async (_request, reply) => reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(source));
  }
}
