import { initials } from './format';

/** A picture when there is one, else initials on a colour derived from the name (the same name, the same colour). */
export function Avatar({ name, image, small }: { name: string; image?: string | undefined; small?: boolean }) {
  const className = `avatar${small ? ' avatar-small' : ''}`;
  if (image) return <img className={className} src={image} alt="" referrerPolicy="no-referrer" />;
  return (
    <span className={`${className} avatar-hue-${hue(name)}`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}

const HUES = 8;

function hue(name: string): number {
  let sum = 0;
  for (const char of name) sum = (sum * 31 + char.codePointAt(0)!) % 1009;
  return sum % HUES;
}
