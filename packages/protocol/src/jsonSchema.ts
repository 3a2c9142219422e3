import type { TSchema } from '@sinclair/typebox';

export type JsonSchema = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema: TypeBox's symbols dropped, our id-list marker as an extension,
 * our URL marker as the standard `format: uri`.
 */
export function toJsonSchema(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && (value as JsonSchema).idList === true) {
      const { idList: _marker, ...rest } = value as JsonSchema;
      return { ...rest, 'x-aviary-id-list': true };
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && (value as JsonSchema).httpUrl === true) {
      const { httpUrl: _marker, ...rest } = value as JsonSchema;
      return { ...rest, format: 'uri' };
    }
    return value;
  }) as JsonSchema;
}
