type SetFields<T> = { [K in keyof T]?: Exclude<T[K], null> };

/**
 * The fields whose value is set (not null): a presenter shows an optional field only when the row has a
 * value for it, never as null.
 */
export function setFields<T extends Record<string, unknown>>(fields: T): SetFields<T> {
  const set: Record<string, unknown> = {};
  for (const key in fields) if (fields[key] !== null) set[key] = fields[key];
  return set as SetFields<T>;
}

/** setFields into an object being built, without a copy: its fields that are set, in their order. */
export function assignSetFields(target: Record<string, unknown>, fields: Record<string, unknown>): void {
  for (const key in fields) if (fields[key] !== null) target[key] = fields[key];
}

/** A JSON column's value as JSON.parse gives it (untyped, like the column), or null when the row has none. */
export const parsedJson = (text: string | null): any => (text === null ? null : JSON.parse(text));
