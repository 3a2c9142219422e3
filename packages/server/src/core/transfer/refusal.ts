/**
 * Why an export or an import cannot go ahead, with the code the CLI reports it under: a team or person
 * that is not there, an option or a file it cannot use, or ids the store already holds.
 */
export type TransferRefusalCode = 'UnknownTeam' | 'UnknownUser' | 'InvalidOption' | 'ImportConflict';

export class TransferRefusal extends Error {
  constructor(
    readonly code: TransferRefusalCode,
    description: string,
  ) {
    super(description);
  }
}
