/** The precompressed forms the web client's build has beside each text file (packages/web/vite.config.ts), best first. */
export const PRECOMPRESSED = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const;

export type Precompressed = (typeof PRECOMPRESSED)[number];

/**
 * The best precompressed form an `Accept-Encoding` header accepts (Brotli, else gzip), or undefined for
 * the file as it is. A coding is accepted when named, or covered by `*`, with a q-value above 0.
 */
export function pickEncoding(acceptEncoding: string | undefined): Precompressed | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.slice(0, 1_000).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name !== '') weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return PRECOMPRESSED.find(({ encoding }) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0);
}
