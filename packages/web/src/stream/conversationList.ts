// Imports name their .js: the root project's tests import this module, with Node's resolution.
import type { StreamDataFrame } from '@aviary/protocol';
import type { Conversation } from '../api/client.js';
import { applyFrames, type Applied } from './applyFrames.js';

/** A load of the list under way, and the frames that came while it was on its way. */
export interface ListLoad {
  frames: StreamDataFrame[];
}

/**
 * The sidebar's conversations as the stream last left them, ahead of the render that shows them: two
 * batches of frames can come before the page draws the first (a flush on the next animation frame runs
 * before the render the first batch asked for), and each must start from the other's counts, not from
 * the list last drawn. A load's answer, which the server may have made before frames that came while it
 * was on its way, gets those frames; an older load's answer, coming after a newer one started, is
 * dropped: it would put back what the stream has changed since (an unread badge, a chat's place).
 */
export class ConversationList {
  private list: Conversation[] | undefined;
  private load: ListLoad | undefined;

  constructor(
    private readonly me: string,
    private readonly show: (list: Conversation[]) => void,
  ) {}

  /** The list as the last batch or load left it (undefined until the first load's answer). */
  get current(): Conversation[] | undefined {
    return this.list;
  }

  /** A new load starts: frames from now on are kept for its answer. */
  startLoad(): ListLoad {
    this.load = { frames: [] };
    return this.load;
  }

  /** The load's answer, with the frames since applied; undefined when a newer load started meanwhile. */
  loaded(load: ListLoad, conversations: Conversation[], openChat: string | undefined): Applied | undefined {
    if (this.load !== load) return undefined;
    this.load = undefined;
    return this.put(applyFrames(conversations, load.frames, this.me, openChat));
  }

  /** A load that failed keeps no frames. */
  abandon(load: ListLoad): void {
    if (this.load === load) this.load = undefined;
  }

  /** A batch of frames; undefined while the list has not been loaded yet (the load's answer gets them). */
  apply(frames: StreamDataFrame[], openChat: string | undefined): Applied | undefined {
    this.load?.frames.push(...frames);
    return this.list && this.put(applyFrames(this.list, frames, this.me, openChat));
  }

  private put(applied: Applied): Applied {
    this.list = applied.conversations;
    this.show(applied.conversations);
    return applied;
  }
}
