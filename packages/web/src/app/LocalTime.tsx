import { useEffect, useState } from 'react';
import { formatTime } from './format';
import { zoneLabel } from './timeZones';

/** A person's zone and the time it is there now (`Europe/Paris · 14:05`), kept current to the minute. */
export function LocalTime({ zone }: { zone: string }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      {/* The time wraps whole to the next line where the line is narrow, never "06:50" from "PM". */}
      {zoneLabel(zone)} · <span className="no-wrap">{formatTime(now, zone)}</span>
    </>
  );
}
