import { describe, expect, it } from 'vitest';
import { validateIntegrations } from '../src/index.js';

const sendEvent = { type: 'sendEvent' };
const command = (name: unknown, extra: Record<string, unknown> = {}) => ({ name, action: sendEvent, ...extra });

describe('validateIntegrations: valid values come back in the stored form', () => {
  it('fills in the lists, resolves action aliases, trims URLs and drops nulls', () => {
    const result = validateIntegrations({
      slashCommands: [command('deploy', { description: 'Ship it', action: { type: 'sendToAppService' } }), command('ping_2', { description: null })],
      launcherButton: { name: 'Tools', icon: '  https://tools.example/i.png ', action: { type: 'openBrowser', url: 'https://tools.example', sendContext: 'true' } },
      chatTabButton: null,
      messageAction: { name: 'Save', action: { type: 'openWidget', url: ' https://tools.example/save', desktopType: 'sidebar' } },
      appHome: { url: ' https://tools.example/home ' },
      previewDomains: null,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        slashCommands: [
          { name: 'deploy', description: 'Ship it', action: { type: 'sendEvent' } },
          { name: 'ping_2', action: { type: 'sendEvent' } },
        ],
        launcherButton: { name: 'Tools', icon: 'https://tools.example/i.png', action: { type: 'openBrowser', url: 'https://tools.example', sendContext: true } },
        messageAction: { name: 'Save', action: { type: 'openWidget', url: 'https://tools.example/save', desktopType: 'sidebar' } },
        appHome: { url: 'https://tools.example/home' },
        previewDomains: [],
      },
    });
  });

  it('takes {} as no integrations, and every limit exactly', () => {
    expect(validateIntegrations({})).toEqual({ ok: true, value: { slashCommands: [], previewDomains: [] } });
    const full = {
      slashCommands: Array.from({ length: 50 }, (_, index) => command(`c${index}`.padEnd(32, 'x'), { description: 'd'.repeat(300) })),
      attachmentPickerButton: { name: 'n'.repeat(80), action: sendEvent },
      previewDomains: Array.from({ length: 50 }, (_, index) => `*.d${index}.example`),
    };
    expect(validateIntegrations(full).ok).toBe(true);
  });
});

describe('validateIntegrations: a refusal names the one field to fix', () => {
  const refusals: Array<[string, unknown, string, RegExp]> = [
    ['not an object', [], 'integrations', /^integrations must be an object; got an array/],
    ['an unknown field', { slashCommand: [] }, 'integrations', /unknown field "slashCommand"; allowed fields are slashCommands, /],
    ['too many commands', { slashCommands: Array.from({ length: 51 }, (_, i) => command(`c${i}`)) }, 'slashCommands', /has 51 slash commands; the limit is 50/],
    ['a name with the slash', { slashCommands: [command('/deploy')] }, 'slashCommands[0].name', /^slashCommands\[0\]\.name must be 1 to 32 letters, digits, _ or -.*got the string "\/deploy"/],
    ['a name too long', { slashCommands: [command('x'.repeat(33))] }, 'slashCommands[0].name', /must be 1 to 32/],
    ['a name not a string', { slashCommands: [command(7)] }, 'slashCommands[0].name', /got a number/],
    ['a name used twice', { slashCommands: [command('a'), command('a')] }, 'slashCommands[1].name', /"a" is used by an earlier command/],
    ['an empty description', { slashCommands: [command('a', { description: ' ' })] }, 'slashCommands[0].description', /must not be empty/],
    ['a description too long', { slashCommands: [command('a', { description: 'd'.repeat(301) })] }, 'slashCommands[0].description', /301 characters long; the limit is 300/],
    ['no action', { slashCommands: [{ name: 'a' }] }, 'slashCommands[0].action', /must be an object; got nothing/],
    ['an unknown action type', { slashCommands: [command('a', { action: { type: 'teleport' } })] }, 'slashCommands[0].action.type', /must be sendEvent, openWidget or openBrowser/],
    ['a widget without its URL', { slashCommands: [command('a', { action: { type: 'openWidget' } })] }, 'slashCommands[0].action.url', /is required/],
    ['a button without a name', { launcherButton: { action: sendEvent } }, 'launcherButton.name', /is required: the label people see/],
    ['a button name too long', { chatTabButton: { name: 'n'.repeat(81), action: sendEvent } }, 'chatTabButton.name', /81 characters long; the limit is 80/],
    ['a script icon', { chatTabButton: { name: 'T', icon: 'javascript:alert(1)', action: sendEvent } }, 'chatTabButton.icon', /must be an http or https URL; got a javascript: URL/],
    ['an unknown button field', { attachmentPickerButton: { name: 'A', action: sendEvent, colour: 'red' } }, 'attachmentPickerButton', /unknown field "colour"/],
    ['an unknown action field', { messageAction: { name: 'M', action: { type: 'openBrowser', url: 'https://x.example', colour: 'red' } } }, 'messageAction.action', /unknown field "colour"/],
    ['a message action with an icon', { messageAction: { name: 'M', icon: 'https://x.example/i.png', action: sendEvent } }, 'messageAction', /unknown field "icon"/],
    ['a home tab without its URL', { appHome: {} }, 'appHome.url', /^appHome\.url is required and must be an http or https URL/],
    ['a home tab at a script URL', { appHome: { url: 'javascript:alert(1)' } }, 'appHome.url', /^appHome\.url must be an http or https URL; got a javascript: URL/],
    ['a home tab with an action', { appHome: { url: 'https://x.example/home', action: sendEvent } }, 'appHome', /unknown field "action"/],
    ['upper case', { previewDomains: ['Example.com'] }, 'previewDomains[0]', /^previewDomains\[0\] must be lower case; got the string "Example\.com"; write example\.com or \*\.example\.com$/],
    ['a URL', { previewDomains: ['ok.example', 'https://bad.example'] }, 'previewDomains[1]', /must be a host name/],
    ['a whole top-level domain', { previewDomains: ['*.com'] }, 'previewDomains[0]', /must not cover a whole top-level domain/],
    ['a domain listed twice', { previewDomains: ['a.example', 'a.example'] }, 'previewDomains[1]', /"a\.example" is listed twice/],
    ['a domain not a string', { previewDomains: [null] }, 'previewDomains[0]', /must be a string; got null/],
    ['too many domains', { previewDomains: Array.from({ length: 51 }, (_, i) => `d${i}.example`) }, 'previewDomains', /has 51 preview domains; the limit is 50/],
  ];

  it.each(refusals)('%s', (_, value, parameter, description) => {
    const result = validateIntegrations(value);
    expect(result).toMatchObject({ ok: false, parameter });
    expect(result.ok ? '' : result.description).toMatch(description);
  });
});
