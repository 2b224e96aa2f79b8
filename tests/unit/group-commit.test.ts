import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '#server/lib/group-commit.ts';

/**
 * A write the test ends by hand: each call of `write` records its items and waits until the test
 * answers it (with results, or an error).
 */
function controlledWrites() {
  const calls: { items: string[]; answer: (results: string[] | Error) => void }[] = [];
  let waitingForCall: (() => void) | undefined;
  return {
    calls,
    write: (items: string[]) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({ items, answer: (results) => (results instanceof Error ? reject(results) : resolve(results)) });
        waitingForCall?.();
      }),
    /** Resolves once `count` writes have been called. */
    async untilCalled(count: number) {
      while (calls.length < count) await new Promise<void>((resolve) => (waitingForCall = resolve));
    },
  };
}

const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: Error) => ({ error: error.message }));

describe('createGroupCommit', () => {
  it('writes the first item at once, alone, and the items that arrive meanwhile together in one write, each with its own result', async () => {
    const writes = controlledWrites();
    const submit = createGroupCommit({ write: writes.write, maxGroupSize: 10 });
    const first = submit('a');
    expect(writes.calls.map((call) => call.items)).toEqual([['a']]);
    const rest = ['b', 'c', 'd'].map(submit);
    expect(writes.calls).toHaveLength(1);
    writes.calls[0]!.answer(['A']);
    await writes.untilCalled(2);
    expect(writes.calls[1]!.items).toEqual(['b', 'c', 'd']);
    writes.calls[1]!.answer(['B', 'C', 'D']);
    expect(await first).toBe('A');
    expect(await Promise.all(rest)).toEqual(['B', 'C', 'D']);
    // Idle again: the next item is written at once.
    const later = submit('e');
    expect(writes.calls[2]!.items).toEqual(['e']);
    writes.calls[2]!.answer(['E']);
    expect(await later).toBe('E');
  });

  it('writes at most maxGroupSize items together, the rest in the next group, in arrival order', async () => {
    const writes = controlledWrites();
    const submit = createGroupCommit({ write: writes.write, maxGroupSize: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map(submit);
    writes.calls[0]!.answer(['A']);
    await writes.untilCalled(2);
    writes.calls[1]!.answer(['B', 'C']);
    await writes.untilCalled(3);
    writes.calls[2]!.answer(['D', 'E']);
    expect(await Promise.all(all)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('when a group fails, writes each of its items alone: the refused one gets its own error, the others their results', async () => {
    const writes = controlledWrites();
    const failures: { message: string; size: number }[] = [];
    const submit = createGroupCommit({
      write: writes.write,
      maxGroupSize: 10,
      onGroupFailed: (error, size) => failures.push({ message: (error as Error).message, size }),
    });
    const first = settle(submit('a'));
    const rest = ['b', 'bad', 'c'].map((item) => settle(submit(item)));
    writes.calls[0]!.answer(['A']);
    await writes.untilCalled(2);
    writes.calls[1]!.answer(new Error('bad is refused'));
    for (const [index, result] of [['B'], new Error('bad is refused alone'), ['C']].entries()) {
      await writes.untilCalled(3 + index);
      writes.calls[2 + index]!.answer(result as string[] | Error);
    }
    expect(await first).toEqual({ value: 'A' });
    expect(await Promise.all(rest)).toEqual([{ value: 'B' }, { error: 'bad is refused alone' }, { value: 'C' }]);
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
    expect(failures).toEqual([{ message: 'bad is refused', size: 3 }]);
  });

  it('a failed write of one item is that item\'s error, not written again, and the next item is still written', async () => {
    const writes = controlledWrites();
    const submit = createGroupCommit({ write: writes.write, maxGroupSize: 10 });
    const failed = settle(submit('a'));
    const next = submit('b');
    writes.calls[0]!.answer(new Error('refused'));
    await writes.untilCalled(2);
    writes.calls[1]!.answer(['B']);
    expect(await failed).toEqual({ error: 'refused' });
    expect(await next).toBe('B');
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b']]);
  });
});
