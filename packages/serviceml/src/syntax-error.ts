/** A syntax error: the document cannot be read past `index`. The tokenizer throws it; the parser reports it. */
export class ServiceMLSyntaxError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

export function failAt(index: number, message: string): never {
  throw new ServiceMLSyntaxError(index, message);
}
