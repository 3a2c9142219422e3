import { Type, type SchemaOptions, type TProperties, type TSchema, type TString } from '@sinclair/typebox';

/** One of a list of string constants. */
export const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(values.map((value) => Type.Literal(value)), description ? { description } : {});

/**
 * A list of ids. Over form or query it may come as a JSON array string or as a comma-separated string;
 * the `idList` marker tells the server's decoder to accept the latter.
 */
export function IdList<T extends TString>(item: T, options: { minItems?: number; maxItems: number; description?: string }) {
  return Type.Array(item, { ...options, idList: true, uniqueItems: false });
}

export function isIdListSchema(schema: TSchema): boolean {
  return (schema as { idList?: boolean }).idList === true;
}

export const NonEmptyString = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

/**
 * An http or https URL. The pattern is only a first sieve: the `httpUrl` marker tells the server's
 * decoder to run the one URL check every other URL gets (ServiceML's checkUrl, which agrees with WHATWG
 * `URL`).
 */
/** An http or https URL described for its field (a spread copy of HttpUrl would be a type the SDK's declarations cannot name). */
export const HttpUrlOf = (description: string) =>
  Type.String({ maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://[^\\s]+$', description, httpUrl: true });

export const HttpUrl = HttpUrlOf('an http or https URL');

export function isHttpUrlSchema(schema: TSchema): boolean {
  return (schema as { httpUrl?: boolean }).httpUrl === true;
}

/**
 * An optional field a change may also clear: `null` or `""` clears it. The `clearable` marker tells the
 * server's decoder to keep that `null` (or `""`, as `null`) rather than read it as "not given".
 */
export function Clearable<T extends TSchema>(inner: T, description: string, options: SchemaOptions = {}) {
  return Type.Union([inner, Type.Literal(''), Type.Null()], { ...options, clearable: true, description });
}

export function isClearableSchema(schema: TSchema): boolean {
  return (schema as { clearable?: boolean }).clearable === true;
}

/**
 * Schema options for an optional text to which "" is a value, not "left out", in a form or a query as in
 * JSON: a change that gives an app an empty name asks for one, and is refused for it.
 */
export const emptyIsGiven = { emptyIsGiven: true } as const;

export function isEmptyGiven(schema: TSchema): boolean {
  return (schema as { emptyIsGiven?: boolean }).emptyIsGiven === true;
}

/**
 * Schema options for a field the server checks with a function of its own, which words the problem and
 * names its exact path (`allowedOrigins[2]`, `integrations.slashCommands[0].name`) and is shared with
 * the CLI: the schema describes the field to clients and in OpenAPI, and the server's decoder leaves
 * the checking to that function rather than checking the same thing twice in other words.
 */
export const checkedByServer = { checkedByServer: true } as const;

export function isCheckedByServer(schema: TSchema): boolean {
  return (schema as { checkedByServer?: boolean }).checkedByServer === true;
}

/** An object of exactly the fields it names: an answer describes every field it has, a body declares every field it takes. */
export const closedObject = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });
