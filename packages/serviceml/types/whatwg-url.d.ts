/**
 * The one platform global the package uses: the WHATWG URL parser, which Node and every browser provide.
 * Declared here (the part the package reads) so that the package is type-checked without Node's or the
 * DOM's other globals, which it must not use.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly href: string;
}
