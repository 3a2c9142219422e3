import { isCheckedByServer, isClearableSchema, isEmptyGiven, isHttpUrlSchema, isIdListSchema } from '@aviary/protocol';
import { checkUrl } from '@aviary/serviceml';
import { Kind, OptionalKind, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { invalidParameter, missingParameter } from './errors.js';
import { unstorableIn, unstorableRefused } from './textGuard.js';

export type RawParams = Record<string, unknown>;

interface ParamDecoder {
  name: string;
  required: boolean;
  schema: TSchema;
  check: TypeCheck<TSchema>;
}

const decoders = new WeakMap<TObject, ParamDecoder[]>();

/** Compiled once per method: one checker per parameter, so an error names exactly one parameter. */
function decodersFor(params: TObject): ParamDecoder[] {
  let list = decoders.get(params);
  if (!list) {
    const required = new Set(params.required ?? []);
    list = Object.entries(params.properties).map(([name, schema]) => ({
      name,
      required: required.has(name) && !(OptionalKind in schema),
      schema,
      check: TypeCompiler.Compile(schema),
    }));
    decoders.set(params, list);
  }
  return list;
}

export interface DecodeOptions {
  /** The values came from a JSON body, where an array is an array, not a parameter given several times. */
  json?: boolean;
}

/**
 * Turns raw parameters (strings from query or form, or JSON values) into typed parameters, as `params`
 * declares them. Throws MissingParameter / InvalidParameter naming the first offending parameter, in
 * declaration order. A clearable parameter (params.ts of the protocol) given as null or "" is null; one
 * the server checks with its own function is only read here (its depth and NUL), and checked there.
 */
export function decodeParams(params: TObject, raw: RawParams, options: DecodeOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const decoder of decodersFor(params)) {
    const given = raw[decoder.name];
    if ((given === null || given === '') && isClearableSchema(decoder.schema)) {
      out[decoder.name] = null;
      continue;
    }
    if (isAbsent(decoder, given, options)) {
      if (decoder.required) throw missingParameter(decoder.name);
      continue;
    }
    const value = coerce(decoder, given, options);
    if (nestedDeeperThan(value, MAX_NESTING)) {
      throw invalidParameter(decoder.name, `"${decoder.name}" is nested more than ${MAX_NESTING} levels deep.`);
    }
    const flaw = unstorableIn(value);
    if (flaw) throw unstorableRefused(decoder.name, flaw);
    if (isCheckedByServer(decoder.schema)) {
      // Checked by its own function in core, which the CLI shares (appFields.ts).
      out[decoder.name] = value;
      continue;
    }
    if (!decoder.check.Check(value)) {
      const first = decoder.check.Errors(value).First();
      throw invalidParameter(decoder.name, describeInvalid(decoder.name, first, value));
    }
    if (isHttpUrlSchema(decoder.schema)) {
      const url = checkUrl(value as string, ['http', 'https']);
      if (!url.ok) throw invalidParameter(decoder.name, `"${decoder.name}" must be an http or https URL; ${url.reason}.`);
    }
    out[decoder.name] = value;
  }
  return out;
}

/**
 * Absent, empty, or (for a required list of at least one item) an empty list. In a JSON body (and for a
 * text marked `emptyIsGiven`, anywhere) "" for an optional text of at least one character is a value,
 * and refused: `{"name": ""}` asks for an empty name, it does not leave the name out.
 */
function isAbsent(decoder: ParamDecoder, given: unknown, options: DecodeOptions): boolean {
  const emptyIsValue = options.json || isEmptyGiven(decoder.schema);
  if (given === '' && emptyIsValue && !decoder.required && Number(decoder.schema.minLength ?? 0) > 0) return false;
  if (given === undefined || given === null || given === '') return true;
  return decoder.required && Array.isArray(given) && given.length === 0 && Number(decoder.schema.minItems ?? 0) > 0;
}

/**
 * How deep arrays and objects may nest in one parameter. No parameter needs more than a handful of
 * levels; checking and describing a value walk it recursively, and thousands of levels would exhaust
 * the stack.
 */
export const MAX_NESTING = 32;

/** Walks at most `limit` levels down, so the walk itself cannot go deep. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (nestedDeeperThan(item, limit - 1)) return true;
  }
  return false;
}

/** The JSON type a value of the schema has: a clearable `X | null` is an X (null and "" were taken for null before). */
function typeOf(schema: TSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  const types = ((schema.anyOf ?? []) as TSchema[]).map((member) => member.type).filter((type) => type !== 'null');
  return types.length === 1 && typeof types[0] === 'string' ? types[0] : undefined;
}

function coerce(decoder: ParamDecoder, given: unknown, options: DecodeOptions): unknown {
  const { schema, name } = decoder;
  const type = typeOf(schema);
  if (Array.isArray(given) && type !== 'array' && !options.json) {
    // A repeated query or form field, or a JSON array where one value goes: the two read the same here.
    const what = given.length === 1 ? 'a list of one value' : `${given.length} values (repeated, or as a list)`;
    throw invalidParameter(name, `"${name}" takes one value, and was given ${what}; give it once, as a single value.`);
  }
  if (typeof given !== 'string') return given;
  switch (type) {
    case 'boolean':
      if (/^(true|1)$/i.test(given)) return true;
      if (/^(false|0)$/i.test(given)) return false;
      throw invalidParameter(name, `"${name}" must be true or false; got ${quote(given)}.`);
    case 'integer':
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(given.trim())) throw invalidParameter(name, `"${name}" must be a number; got ${quote(given)}.`);
      return Number(given);
    case 'array':
      if (isIdListSchema(schema) && !given.trimStart().startsWith('[')) {
        return given.split(',').map((item) => item.trim()).filter((item) => item !== '');
      }
      return parseJson(name, given, 'a JSON array');
    case 'object':
      return parseJson(name, given, 'a JSON object');
    default:
      return given;
  }
}

function parseJson(name: string, text: string, expected: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParameter(name, `"${name}" must be ${expected}; its text is not valid JSON.`);
  }
}

/** A value its schema refused, in words: `name` and the path inside it, what was expected (the schema's description), what came. */
export function describeInvalid(name: string, error: ValueError | undefined, value: unknown): string {
  if (!error) return `"${name}" is invalid.`;
  const where = name + error.path.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('');
  const schema = error.schema as TSchema & Record<string, unknown>;
  const expected = typeof schema.description === 'string' ? schema.description : undefined;
  switch (error.type) {
    case ValueErrorType.StringMaxLength:
      return `"${where}" must be at most ${schema.maxLength} characters; got ${String(error.value).length}.`;
    case ValueErrorType.StringMinLength:
      return `"${where}" must not be empty.`;
    case ValueErrorType.ArrayMaxItems:
      return `"${where}" may hold at most ${schema.maxItems} items; got ${(error.value as unknown[]).length}.`;
    case ValueErrorType.ArrayMinItems:
      return `"${where}" must hold at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `"${where}" must be ${expected ?? `between ${schema.minimum ?? '-∞'} and ${schema.maximum ?? '∞'}`}; got ${String(error.value)}.`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `"${where}" has a field that is not allowed: ${expected ? `expected ${expected}` : error.message}.`;
    case ValueErrorType.ObjectRequiredProperty:
      return `"${where}" is required.`;
    default:
      if (expected) return `"${where}" must be ${expected}; got ${quote(error.value ?? value)}.`;
      return `"${where}" ${kindPhrase(schema)}; got ${quote(error.value ?? value)}.`;
  }
}

function kindPhrase(schema: TSchema): string {
  if (schema.anyOf) {
    const literals = (schema.anyOf as TSchema[]).map((option) => option.const).filter((v) => v !== undefined);
    if (literals.length) return `must be one of ${literals.join(', ')}`;
  }
  const kind = (schema as { [Kind]?: string })[Kind];
  return `must be ${kind === 'Integer' ? 'an integer' : `a${/^[AEIOU]/.test(kind ?? '') ? 'n' : ''} ${String(kind ?? 'valid value').toLowerCase()}`}`;
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Refuses a field that is not `declared` (a misspelt one is never silently ignored), naming it and `where`. */
export function refuseUndeclaredFields(declared: readonly string[], fields: RawParams, where: string): void {
  const undeclared = Object.keys(fields).find((name) => !declared.includes(name));
  if (undeclared === undefined) return;
  const parameter = undeclared.slice(0, 100);
  throw invalidParameter(parameter, `${JSON.stringify(parameter)} is not a field of ${where}; its fields are ${declared.join(', ')}.`);
}
