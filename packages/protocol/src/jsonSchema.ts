import type { TSchema } from '@sinclair/typebox';

export type JsonSchema = Record<string, unknown>;

/** Our markers on TypeBox schemas (params.ts), and what each becomes in plain JSON Schema. */
const markers: Record<string, JsonSchema> = {
  idList: { 'x-aviary-id-list': true },
  clearable: { 'x-aviary-clearable': true },
  emptyIsGiven: { 'x-aviary-empty-is-given': true },
  httpUrl: { format: 'uri' },
  checkedByServer: {},
};

/**
 * A TypeBox schema as plain JSON Schema: TypeBox's symbols dropped, our id-list, clearable and empty-is-given markers as
 * extensions, our URL marker as the standard `format: uri`, the server's own marker dropped.
 */
export function toJsonSchema(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    let out = value as JsonSchema;
    for (const [marker, replacement] of Object.entries(markers)) {
      if (out[marker] !== true) continue;
      const { [marker]: _marker, ...rest } = out;
      out = { ...rest, ...replacement };
    }
    return out;
  }) as JsonSchema;
}
