import { useMemo, type ReactNode } from 'react';
import { zoneChoices, zoneLabel } from './timeZones';

/**
 * "Time zone": every IANA zone the browser knows, each with its offset now, and under it the zone chosen
 * and its offset (`hint` words it). Used by the profile dialog and the sign-up page.
 */
export function TimeZoneField({
  zone,
  onChange,
  hint,
  invalid,
  refusal,
}: {
  zone: string;
  onChange: (zone: string) => void;
  hint: (label: string, offset: string) => string;
  invalid: object;
  refusal: ReactNode;
}) {
  const choices = useMemo(() => zoneChoices(Date.now(), zone), [zone]);
  const offset = choices.find((choice) => choice.zone === zone)?.offset ?? '+00:00';
  return (
    <label>
      Time zone
      <select value={zone} onChange={(event) => onChange(event.target.value)} {...invalid}>
        {choices.map((choice) => (
          <option key={choice.zone} value={choice.zone}>
            {zoneLabel(choice.zone).startsWith('UTC') ? zoneLabel(choice.zone) : `${zoneLabel(choice.zone)} (UTC${choice.offset})`}
          </option>
        ))}
      </select>
      <span className="field-hint">{hint(zoneLabel(zone), offset)}</span>
      {refusal}
    </label>
  );
}
