import type { PresenceStatus } from '@aviary/protocol';
import { initials } from './format';

/**
 * A picture when there is one, else initials on a colour derived from the name (the same name, the same
 * colour). With `presence`, a dot on its corner: filled when online, a ring when away (not colour
 * alone). The dot is drawn only: screen readers hear `PresenceText`, which goes after the person's name.
 */
export function Avatar({ name, image, small, presence }: { name: string; image?: string | undefined; small?: boolean; presence?: PresenceStatus | undefined }) {
  const className = `avatar${small ? ' avatar-small' : ''}`;
  const face = image ? (
    <img className={className} src={sized(image, small ? 64 : 256)} alt="" referrerPolicy="no-referrer" />
  ) : (
    <span className={`${className} avatar-hue-${hue(name)}`} aria-hidden="true">
      {initials(name)}
    </span>
  );
  if (presence === undefined) return face;
  return (
    <span className="avatar-with-presence">
      {face}
      <span className={`presence-dot presence-${presence}`} aria-hidden="true" title={presence === 'online' ? 'Online' : 'Away'} />
    </span>
  );
}

/** What the avatar's dot shows, for screen readers: put after the name (“Alice Archer (online)”). */
export function PresenceText({ presence }: { presence: PresenceStatus | undefined }) {
  return presence === undefined ? null : <span className="visually-hidden"> ({presence})</span>;
}

/**
 * A picture of this server (/pictures/<id>, docs/reference/pictures.md) at the square that fits: the
 * 512-pixel one is for large views only. Any other URL (an app's icon, a sendAs picture) as it is.
 */
export function sized(image: string, side: 64 | 256): string {
  const url = new URL(image, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/pictures/')) return image;
  return `${url.pathname}?size=${side}`;
}

const HUES = 8;

function hue(name: string): number {
  let sum = 0;
  for (const char of name) sum = (sum * 31 + char.codePointAt(0)!) % 1009;
  return sum % HUES;
}
