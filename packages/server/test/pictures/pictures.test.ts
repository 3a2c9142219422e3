import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { download, png, upload } from '../files/upload.js';

/** A JPEG that says (EXIF) it was taken at a place with a camera, stored sideways (orientation 6: shown 30 × 40). */
const photoWithExif = (): Promise<Buffer> =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'Spy 1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** users.setProfileImage / removeProfileImage, team.setIcon / removeIcon and GET /pictures/:id, on both dialects. */
forEachDialect('profile pictures and the team icon', (t) => {
  const cast = async () => {
    const team = await t().f.team();
    const ann = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ann' }));
    const ben = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ben' }));
    const admin = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ada', role: 'admin' }));
    const other = await sessionFor(t(), await t().f.person((await t().f.team('Elsewhere')).id, { firstName: 'Oz' }));
    return { team, ann, ben, admin, other };
  };
  const uploaded = async (token: string, name: string, bytes: Uint8Array | string) => {
    const answer = await upload(t(), token, name, bytes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.file.id as string;
  };
  const stored = async () => (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);
  const pathOf = (url: string) => new URL(url, 'http://x').pathname;

  it('makes square WebP pictures without EXIF from an upload, shows them to the team, and removes the upload', async () => {
    const { ann, ben, other } = await cast();
    const photo = await photoWithExif();
    expect(photo.includes(Buffer.from('SecretCam'))).toBe(true);
    const file = await uploaded(ann.sessionToken, 'me.jpg', photo);
    const set = await ann.call('users.setProfileImage', { file });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const url = (set.body as any).user.profileImage as string;
    expect(url).toMatch(/^\/pictures\/[a-z2-7]{26}$/);
    // users.getInfo, the public profile and the roster all show it.
    expect(((await ann.call('users.getInfo')).body as any).profileImage).toBe(url);
    expect(((await ben.call('users.getPublicProfile', { userId: ann.user.id })).body as any).profileImage).toBe(url);
    expect(((await ben.call('roster.listContacts')).body as any[]).find((c) => c.id === ann.user.id).profileImage).toBe(url);

    for (const [size, side] of [[undefined, 512], ['256', 256], ['64', 64]] as const) {
      const served = await download(t(), ben.sessionToken, size ? `${url}?size=${size}` : url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await sharp(served.bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, orientation: meta.orientation }).toEqual({ format: 'webp', width: side, height: side, exif: undefined, orientation: undefined });
      expect(served.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
    }
    // The upload served its purpose: its row and bytes are gone; three squares are stored.
    expect((await ann.call('files.getInfo', { file })).body).toMatchObject({ error: 'UnknownFile' });
    expect((await stored()).sort()).toEqual(['64', '256', '512'].map((side) => `${pathOf(url).split('/')[2]}.${side}.webp`).sort());

    // Another team sees nothing; nobody signed out does; a size that is not made is refused by name.
    expect((await download(t(), other.sessionToken, url)).json()).toMatchObject({ error: 'UnknownFile', parameter: 'id' });
    expect((await fetch(`${t().url}${url}`)).status).toBe(401);
    expect((await download(t(), ben.sessionToken, `${url}?size=100`)).json()).toMatchObject({ error: 'InvalidParameter', parameter: 'size' });

    // A new picture replaces the old one (its URL answers no more); removing it leaves no bytes.
    const again = await ann.call('users.setProfileImage', { file: await uploaded(ann.sessionToken, 'me.png', await png(300, 200)) });
    const next = (again.body as any).user.profileImage as string;
    expect(next).not.toBe(url);
    expect((await download(t(), ben.sessionToken, url)).status).toBe(400);
    expect((await download(t(), ben.sessionToken, next)).status).toBe(200);
    const removed = await ann.call('users.removeProfileImage');
    expect(removed.status).toBe(200);
    expect((removed.body as any).user.profileImage).toBeUndefined();
    expect((await download(t(), ben.sessionToken, next)).status).toBe(400);
    expect(await stored()).toEqual([]);
  });

  it('refuses what is no image, an image too large, and another person’s upload, naming the file', async () => {
    const { ann, ben } = await cast();
    const text = await uploaded(ann.sessionToken, 'notes.txt', 'just words');
    expect((await ann.call('users.setProfileImage', { file: text })).body).toMatchObject({ error: 'UnsupportedFile', parameter: 'file', description: expect.stringMatching(/PNG, JPEG, GIF, WebP or AVIF/) });
    const svg = await uploaded(ann.sessionToken, 'face.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await ann.call('users.setProfileImage', { file: svg })).status).toBe(415);
    // 8,000 × 8,000 pixels: 64 million, above the limit, though a small file.
    const huge = await uploaded(ann.sessionToken, 'huge.png', await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer());
    const refused = await ann.call('users.setProfileImage', { file: huge });
    expect({ status: refused.status, body: refused.body }).toMatchObject({ status: 413, body: { error: 'FileTooLarge', parameter: 'file', description: expect.stringMatching(/8000 × 8000 pixels/) } });
    const bens = await uploaded(ben.sessionToken, 'ben.png', await png());
    expect((await ann.call('users.setProfileImage', { file: bens })).body).toMatchObject({ error: 'UnknownFile', parameter: 'file' });
    expect((await ann.call('users.setProfileImage', { file: 'not-a-file' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'file' });
    expect(((await ann.call('users.getInfo')).body as any).profileImage).toBeUndefined();
  });

  describe('the team icon', () => {
    it('is set and removed by a team admin, audit-logged, and refused to a member', async () => {
      const { team, ann, admin } = await cast();
      const file = await uploaded(admin.sessionToken, 'logo.png', await png(120, 80));
      const set = await admin.call('team.setIcon', { file });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const icon = (set.body as any).team.icon as string;
      expect(icon).toMatch(/^\/pictures\//);
      expect(((await ann.call('team.getInfo')).body as any).team.icon).toBe(icon);
      // The page learns it with the session, for the sidebar's header.
      const session = await fetch(`${t().url}/api/session`, { headers: { authorization: `Bearer ${ann.sessionToken}` } });
      expect(((await session.json()) as any).team).toEqual({ id: team.id, name: expect.any(String), icon });
      const served = await download(t(), ann.sessionToken, `${icon}?size=64`);
      expect(await sharp(served.bytes).metadata()).toMatchObject({ format: 'webp', width: 64, height: 64 });

      const mine = await uploaded(ann.sessionToken, 'mine.png', await png());
      expect((await ann.call('team.setIcon', { file: mine })).body).toMatchObject({ error: 'PermissionDenied' });
      expect((await ann.call('team.removeIcon')).body).toMatchObject({ error: 'PermissionDenied' });
      expect(((await admin.call('team.removeIcon')).body as any).team.icon).toBeUndefined();
      const rows = await t().testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('team_id', '=', team.id).orderBy('at').orderBy('id').execute();
      expect(rows.map((row) => [row.action, row.actor_user_id, JSON.parse(row.details)])).toEqual([
        ['team.settingsChanged', admin.user.id, { icon: 'set' }],
        ['team.settingsChanged', admin.user.id, { icon: 'removed' }],
      ]);
    });
  });
});
