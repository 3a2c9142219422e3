// Types of build-parts.mjs, for the tests and tools written in TypeScript.
export interface BuildPart {
  key: string;
  name: string;
  dir: string;
  output: string;
  sources: string[];
  command(): string[];
}
export const buildParts: BuildPart[];
export function isStale(part: Pick<BuildPart, 'dir' | 'output' | 'sources'>): boolean;
