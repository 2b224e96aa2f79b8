import { describe, expect, it } from 'vitest';
import { createCoalescedRunner } from '#server/lib/coalesced-runner.ts';

/** A run the test ends by hand: each call of `run` waits until the test releases it. */
function controlledRuns() {
  const releases: Array<(error?: Error) => void> = [];
  let waitingForStart: (() => void) | undefined;
  return {
    started: () => releases.length,
    run: () =>
      new Promise<void>((resolve, reject) => {
        releases.push((error) => (error ? reject(error) : resolve()));
        waitingForStart?.();
      }),
    /** Ends run number `index` (0-based), with an error if given. */
    release: (index: number, error?: Error) => releases[index]!(error),
    /** Resolves once `count` runs have started. */
    async untilStarted(count: number) {
      while (releases.length < count) await new Promise<void>((resolve) => (waitingForStart = resolve));
    },
  };
}

describe('createCoalescedRunner', () => {
  it('runs at once on a kick, and kicks during a run coalesce into exactly one more run', async () => {
    const runs = controlledRuns();
    const runner = createCoalescedRunner({ run: runs.run, onError: () => undefined, canRun: () => true });
    runner.kick();
    expect(runs.started()).toBe(1);
    runner.kick();
    runner.kick();
    runner.kick();
    expect(runs.started()).toBe(1);
    runs.release(0);
    await runs.untilStarted(2);
    runs.release(1);
    await runner.idle();
    expect(runs.started()).toBe(2);
    // Idle again: the next kick starts a new run.
    runner.kick();
    expect(runs.started()).toBe(3);
    runs.release(2);
    await runner.idle();
  });

  it('idle() waits for the run going and the rerun it owes', async () => {
    const runs = controlledRuns();
    const runner = createCoalescedRunner({ run: runs.run, onError: () => undefined, canRun: () => true });
    await runner.idle();
    runner.kick();
    runner.kick();
    let isIdle = false;
    const idle = runner.idle().then(() => (isIdle = true));
    runs.release(0);
    await runs.untilStarted(2);
    expect(isIdle).toBe(false);
    runs.release(1);
    await idle;
    expect(isIdle).toBe(true);
  });

  it('reports a failed run and keeps running later kicks and the rerun it owes', async () => {
    const runs = controlledRuns();
    const errors: unknown[] = [];
    const runner = createCoalescedRunner({ run: runs.run, onError: (error) => errors.push(error), canRun: () => true });
    runner.kick();
    runner.kick();
    const failure = new Error('database gone');
    runs.release(0, failure);
    await runs.untilStarted(2);
    expect(errors).toEqual([failure]);
    runs.release(1);
    await runner.idle();
    runner.kick();
    expect(runs.started()).toBe(3);
    runs.release(2);
    await runner.idle();
    expect(errors).toEqual([failure]);
  });

  it('does nothing while canRun() is false, and owes no rerun once it turns false', async () => {
    const runs = controlledRuns();
    let canRun = false;
    const runner = createCoalescedRunner({ run: runs.run, onError: () => undefined, canRun: () => canRun });
    runner.kick();
    expect(runs.started()).toBe(0);
    canRun = true;
    runner.kick();
    runner.kick();
    canRun = false;
    runs.release(0);
    await runner.idle();
    expect(runs.started()).toBe(1);
  });

  it('drain(ms) answers true when the run ends in time or none is going, false when it gives up', async () => {
    const runs = controlledRuns();
    const runner = createCoalescedRunner({ run: runs.run, onError: () => undefined, canRun: () => true });
    expect(await runner.drain(10)).toBe(true);
    runner.kick();
    expect(await runner.drain(10)).toBe(false);
    const drained = runner.drain(60_000);
    runs.release(0);
    expect(await drained).toBe(true);
  });
});
