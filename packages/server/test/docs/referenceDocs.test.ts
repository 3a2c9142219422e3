import { eventNames, methodsByName, StreamFrame, streamFrameTypes } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../security/matrix/routes.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

/**
 * Keeps docs/reference in step with the code where that is cheap to check: every method, event and
 * HTTP route has its section, no section describes one that is gone, and nothing in the repository
 * points outside it.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const readDoc = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

/** The `## name` headings of a page: one per method or event. */
function sectionNames(markdown: string): string[] {
  return [...markdown.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]);
}

/** Every "VERB /path" a page names, e.g. `POST /api/session`. */
function routesNamed(markdown: string): string[] {
  // A path ends in a word character, or is the root alone (`GET /`).
  const found = markdown.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w:./-]*\w|\/(?=[\s`]))/g);
  return [...new Set([...found].map((match) => `${match[1]} ${match[2]}`))];
}

describe('docs/reference/methods.md', () => {
  const sections = sectionNames(readDoc('docs/reference/methods.md'));

  it('has a section for every method of the protocol, and none for another', () => {
    expect([...sections].sort()).toEqual([...methodsByName.keys()].sort());
  });
});

describe('docs/reference/events.md', () => {
  const sections = sectionNames(readDoc('docs/reference/events.md'));

  it('has a section for every event of the protocol, and none for another', () => {
    expect([...sections].sort()).toEqual([...eventNames].sort());
  });
});

describe('docs/reference/stream.md', () => {
  const page = readDoc('docs/reference/stream.md');

  it('has a section for every frame of the protocol, and none for another', () => {
    expect([...sectionNames(page)].sort()).toEqual([...streamFrameTypes].sort());
  });

  it('gives each frame an example that is that frame', () => {
    for (const type of streamFrameTypes) {
      const section = page.split(`\n## ${type}\n`)[1].split('\n## ')[0];
      const example = /```json\n(.+)\n```/.exec(section)?.[1];
      expect(example, type).toBeDefined();
      const frame = JSON.parse(example!);
      expect(frame.type).toBe(type);
      expect([...Value.Errors(StreamFrame, frame)].map((error) => `${error.path} ${error.message}`), type).toEqual([]);
    }
  });
});

describe('docs/reference/README.md, sessions.md, developer-api.md and docs/operations.md', () => {
  let server: TestServer | undefined;
  let registered: string[] = [];
  const clientDoc = routesNamed(readDoc('docs/reference/README.md') + readDoc('docs/reference/sessions.md'));
  const developerDoc = routesNamed(readDoc('docs/reference/developer-api.md'));
  const operationsDoc = routesNamed(readDoc('docs/operations.md'));

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    registered = registeredRoutes(server.server.http.app);
  });
  afterAll(async () => {
    if (server) await stopTestServer(server);
  });

  it('name every route the server registers besides the method API (documented in methods.md)', () => {
    const routes = registered.filter((route) => !/ \/v1\/:method$/.test(route));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !clientDoc.includes(route) && !operationsDoc.includes(route))).toEqual([]);
  });

  it('name no route the server does not register', () => {
    expect([...clientDoc, ...developerDoc, ...operationsDoc].filter((route) => !registered.includes(route))).toEqual([]);
  });
});

describe('the repository points nowhere outside itself', () => {
  const skipped = new Set(['node_modules', '.git', 'data', 'coverage', 'package-lock.json']);
  const textFile = /\.(md|ts|js|mjs|cjs|json|ya?ml|sh|html)$|^run$/;

  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (skipped.has(entry.name)) return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return files(path);
      return textFile.test(entry.name) ? [path] : [];
    });
  }

  const all = files(repoRoot);
  const markdown = all.filter((path) => path.endsWith('.md'));
  // Built from parts, so that this file does not name what it looks for.
  const outsideCitations = [['..', 'shared'].join('/'), ['shared', 'spec'].join('/'), ['reference', '§'].join(' '), ['platform', 'api'].join('-')];

  it('finds the files it checks', () => {
    expect(markdown.map((path) => relative(repoRoot, path))).toContain(join('docs', 'reference', 'README.md'));
    expect(all.length).toBeGreaterThan(100);
  });

  it('cites no document outside the repository', () => {
    const citing = all.flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return outsideCitations.filter((needle) => text.includes(needle)).map((needle) => `${relative(repoRoot, path)}: ${needle}`);
    });
    expect(citing).toEqual([]);
  });

  it('has Markdown links only to files of the repository that exist', () => {
    const broken = markdown.flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/<(https?:[^>\s]+)>/g)].map((match) => match[1]);
      return targets.filter((target) => !isInsideAndExists(path, target)).map((target) => `${relative(repoRoot, path)} → ${target}`);
    });
    expect(broken).toEqual([]);
  });

  function isInsideAndExists(from: string, target: string): boolean {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return false;
    const file = target.split('#')[0];
    if (file === '') return true;
    const resolved = resolve(dirname(from), decodeURIComponent(file));
    return (resolved === repoRoot || resolved.startsWith(repoRoot + sep)) && existsSync(resolved);
  }
});
