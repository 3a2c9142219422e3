/** Who is online across the server's processes (the stream's presence): Web Push skips them. */
export interface OnlinePeople {
  online(teamId: string, now: number): Promise<string[]>;
}
