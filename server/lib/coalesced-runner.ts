/**
 * Background work that runs on demand, one run at a time (the e-mail outbox and the messaging
 * runner): `kick()` starts a run at once when none is going; kicks during a run coalesce into one
 * more run after it, so work that arrived meanwhile is not missed and a burst of kicks costs two
 * runs, not one per kick. A run that throws is reported to `onError`; later kicks run again.
 *
 * `canRun` is asked at each kick and before each rerun: the owner answers false once it is
 * stopping (and, for the messaging runner, before it is started).
 */
export function createCoalescedRunner(options: {
  run: () => Promise<void>;
  onError: (error: unknown) => void;
  canRun: () => boolean;
}) {
  let running: Promise<void> | undefined;
  let isRerunWanted = false;

  function kick(): void {
    if (!options.canRun()) return;
    if (running) {
      isRerunWanted = true;
      return;
    }
    running = (async () => {
      do {
        isRerunWanted = false;
        await options.run().catch(options.onError);
      } while (isRerunWanted && options.canRun());
    })().finally(() => {
      running = undefined;
    });
  }

  return {
    kick,
    /** Resolves when no run is going (tests wait on it). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    /**
     * Waits for the run going now (and the reruns it owes, while `canRun` allows them) at most
     * `ms`: true when it ended in time or none was going, false when the wait gave up.
     */
    async drain(ms: number): Promise<boolean> {
      const inFlight = running;
      if (!inFlight) return true;
      let timeout: NodeJS.Timeout | undefined;
      const isDrained = await Promise.race([
        inFlight.then(() => true),
        new Promise<boolean>((resolve) => (timeout = setTimeout(() => resolve(false), ms))),
      ]);
      clearTimeout(timeout);
      return isDrained;
    },
  };
}

export type CoalescedRunner = ReturnType<typeof createCoalescedRunner>;
