/**
 * Group commit (decision 024-a): writes that arrive while one is being written wait, and are then
 * written together, in one call of `write` (one transaction), instead of one after another.
 *
 * On the embedded database every transaction holds the one backend from BEGIN to COMMIT, so ten
 * bookings in flight queue behind each other's statements and round trips; a group pays for its
 * statements once (multi-row inserts) and for one BEGIN and COMMIT.
 *
 * - A write that arrives when nothing is being written starts at once, alone: no waiting to
 *   gather a group, so one visitor at a time sees no difference.
 * - `write(items)` answers one result per item, in the items' order, or throws.
 * - When a group's write throws, nothing of it was kept (one transaction), and each of its items is
 *   written again alone: each then gets its own result or its own error, so one item's refusal
 *   never loses another's write. (A group of one throws its error at once.)
 */
export function createGroupCommit<Item, Result>(options: {
  write: (items: Item[]) => Promise<Result[]>;
  /** At most this many items per group (a long transaction holds the database longer). */
  maxGroupSize: number;
  /** Told when a group's write failed and its items are written one by one. */
  onGroupFailed?: (error: unknown, size: number) => void;
}): (item: Item) => Promise<Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let isWriting = false;

  async function writeAlone(waiting: Waiting): Promise<void> {
    try {
      const [result] = await options.write([waiting.item]);
      waiting.resolve(result as Result);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function writeGroup(group: Waiting[]): Promise<void> {
    if (group.length === 1) return writeAlone(group[0]!);
    let results: Result[];
    try {
      results = await options.write(group.map((waiting) => waiting.item));
    } catch (error) {
      options.onGroupFailed?.(error, group.length);
      for (const waiting of group) await writeAlone(waiting);
      return;
    }
    if (results.length !== group.length) {
      const error = new Error(`a group write answered ${results.length} results for ${group.length} items`);
      for (const waiting of group) waiting.reject(error);
      return;
    }
    group.forEach((waiting, index) => waiting.resolve(results[index]!));
  }

  async function drain(): Promise<void> {
    isWriting = true;
    try {
      while (queue.length > 0) await writeGroup(queue.splice(0, options.maxGroupSize));
    } finally {
      isWriting = false;
    }
  }

  return (item: Item) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!isWriting) void drain();
    });
}
