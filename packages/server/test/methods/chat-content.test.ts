import { describe, expect, it } from 'vitest';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';
import { roomyRateLimits } from './chat-cast.js';

/** Issue #4: what an app writes comes back exactly as written, and what is invalid is named precisely. */
const validDocuments = [
  '<serviceml>plain text</serviceml>',
  '<serviceml><b>bold</b>, <strong>strong</strong>, <i>italic</i>, <em>em</em>, <u>underline</u></serviceml>',
  '<serviceml>line one<br/>line two</serviceml>',
  '<serviceml><a href="https://example.com/path?q=1&amp;r=2">a link</a></serviceml>',
  '<serviceml><a href="mailto:team@example.com">mail us</a></serviceml>',
  '<serviceml>Hi <user userId="u:abcdefghijklmnop">Pat</user>!</serviceml>',
  '<serviceml><action id="approve" type="sendEvent">Approve</action></serviceml>',
  '<serviceml><action id="open" type="openWidget" url="https://app.example.com/w" desktopType="sidebar" mobileType="modal">Open</action></serviceml>',
  '<serviceml><action id="web" type="openBrowser" url="https://example.com" sendContext="true">Web</action></serviceml>',
  '<serviceml>&lt;not a tag&gt; &amp; &quot;quoted&quot; &apos;single&apos; &#169; &#x1F600;</serviceml>',
  '<serviceml>\n  <b>multi\n  line</b>\n</serviceml>',
  '<serviceml><b><i><u>nested</u></i></b> 日本語 🎉</serviceml>',
];

const validAttachments = [
  { title: 'Title only' },
  { id: 'a1', title: 'Full', description: 'All the fields', color: '#336699', url: 'https://example.com', forward: true },
  { id: 'w', views: { widget: { src: 'https://widgets.example.com/x', width: 320, height: 240 } } },
  { id: 'h', views: { html: { inline: '<p onclick="x()">shown only in a sandboxed iframe</p>', width: 100, height: 50 } } },
  { id: 's', views: { serviceml: '<serviceml><b>Build</b> passed</serviceml>' } },
  { id: 'i', views: { image: { original: { src: 'https://img.example.com/a.png', width: 640, height: 480 }, thumbnail: { src: 'https://img.example.com/t.png' }, filename: 'a.png' } } },
  { id: 'd', downloads: [{ src: 'https://files.example.com/r.pdf', mime: 'application/pdf', filename: 'r.pdf', size: 1234 }] },
  { id: 'b', buttons: [{ name: 'Approve', id: 'ok', action: { type: 'sendEvent' } }, { name: 'Open', id: 'open', action: { type: 'openWidget', url: 'https://example.com/w', desktopType: 'modal' } }] },
];

const invalidDocuments: Array<[string, string, string]> = [
  ['<serviceml><blink>x</blink></serviceml>', 'line 1:12', '<blink>'],
  ['<serviceml>\n  <b>fine</b>\n  <script>alert(1)</script>\n</serviceml>', 'line 3:3', '<script>'],
  ['<serviceml><a href="javascript:alert(1)">x</a></serviceml>', 'line 1:', 'javascript'],
  ['<serviceml><a href="  JaVaScRiPt:alert(1)">x</a></serviceml>', 'line 1:', 'javascript'],
  ['<serviceml><b onclick="x()">x</b></serviceml>', 'line 1:', 'onclick'],
  ['<serviceml><b>unclosed</serviceml>', 'line 1:', '</serviceml>'],
  ['no root at all', 'line 1:1', 'serviceml'],
  ['<serviceml>&nbsp;</serviceml>', 'line 1:12', 'nbsp'],
  ['<serviceml><action type="sendEvent">no id</action></serviceml>', 'line 1:', 'id'],
  ['<serviceml><![CDATA[x]]></serviceml>', 'line 1:12', 'CDATA'],
];

forEachDialect(
  'chat.sendMessage content round-trips',
  (t) => {
    const cast = async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const [alice, bob] = people;
      return { client: t().client(alice.token), to: bob.id };
    };

    it.each(validDocuments)('keeps the ServiceML document %s', async (serviceml) => {
      const { client, to } = await cast();
      const { uid } = await client.chat.sendMessage({ to, text: 'fallback text', serviceml });
      const [message] = await client.chat.fetchMessages({ chat: to, uids: [uid] });
      expect(message.serviceml).toBe(serviceml);
      expect(message.text).toBe('fallback text');
    });

    it.each(validAttachments.map((attachment) => [attachment.id ?? attachment.title, attachment] as const))(
      'keeps the attachment %s, stamped with the sending app',
      async (_name, attachment) => {
        const { client, to } = await cast();
        const { uid } = await client.chat.sendMessage({ to, text: 'with attachment', attachments: [attachment] });
        const [message] = await client.chat.fetchMessages({ chat: to, uids: [uid] });
        expect(message.attachments).toEqual([{ ...attachment, appId: message.appId }]);
      },
    );

    it('stores numeric strings of a widget as numbers (form encoding)', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const attachments = JSON.stringify([{ views: { widget: { src: 'https://w.example.com', width: '300', height: '200' } } }]);
      const sent = await t().call('chat.sendMessage', { form: { token: people[0].token, to: people[1].id, text: 'w', attachments } });
      expect(sent.status).toBe(200);
      const [message] = await t().client(people[0].token).chat.fetchMessages({ chat: people[1].id, uids: [sent.body.uid] });
      expect(message.attachments?.[0]).toMatchObject({ views: { widget: { width: 300, height: 200 } } });
    });

    describe('invalid documents are refused with where and what', () => {
      it.each(invalidDocuments)('%s', async (serviceml, position, fragment) => {
        const { people } = await teamWithApp(t().testStore.store.db, 2);
        const answer = await t().call('chat.sendMessage', { form: { token: people[0].token, to: people[1].id, text: 'x', serviceml } });
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: 'InvalidParameter', parameter: 'serviceml' });
        expect(answer.body.description).toContain(position);
        expect(answer.body.description.toLowerCase()).toContain(fragment.toLowerCase());
      });

      it('names the exact attachment path', async () => {
        const { people } = await teamWithApp(t().testStore.store.db, 2);
        const cases: Array<[unknown, string]> = [
          [[{ views: { widget: { src: 'javascript:alert(1)', width: 1, height: 1 } } }], 'attachments[0].views.widget.src'],
          [[{ views: { serviceml: '<serviceml><blink/></serviceml>' } }], 'attachments[0].views.serviceml'],
          [[{ color: 'red' }], 'attachments[0].color'],
          [[{ buttons: [{ name: 'x', id: 'x', action: { type: 'openWidget' } }] }], 'attachments[0].buttons[0].action.url'],
          [[{ title: 'one' }, { title: 'two' }], 'attachments'],
        ];
        for (const [attachments, parameter] of cases) {
          const answer = await t().call('chat.sendMessage', { json: { token: people[0].token, to: people[1].id, text: 'x', attachments } });
          expect(answer.status, parameter).toBe(400);
          expect(answer.body).toMatchObject({ error: 'InvalidParameter', parameter });
          expect(answer.body.description.length).toBeGreaterThan(15);
        }
      });
    });
  },
  roomyRateLimits,
);
