import { AppError } from '#server/errors.ts';

export type LiveStreamLimits = {
  /** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
  heartbeatMs: number;
  /** The reconnection delay the server suggests to EventSource (`retry:`). */
  retryMs: number;
  /** Each open admin tab holds one stream; more than this per session is refused. */
  maxStreamsPerSession: number;
  /** Streams of this server instance together (each holds a socket and a little memory). */
  maxStreams: number;
};

export const defaultLiveStreamLimits: LiveStreamLimits = {
  heartbeatMs: 20_000,
  retryMs: 3_000,
  maxStreamsPerSession: 5,
  maxStreams: 500,
};

export const liveStreamMessages = {
  tooManyForSession: 'Too many live update connections for this sign-in; close some back-office tabs.',
  tooMany: 'The server has too many live update connections; try again shortly.',
} as const;

/**
 * Who holds a live-update stream: admission against the caps, and the list the server ends on
 * shutdown (an open stream would otherwise hold the server's close forever).
 */
export function createLiveStreamRegistry(limits: Pick<LiveStreamLimits, 'maxStreamsPerSession' | 'maxStreams'>) {
  const perSession = new Map<string, Set<() => void>>();
  const open = new Set<() => void>();

  return {
    /** Admits one more stream or throws 429; returns the release to call when the stream ends. */
    admit(sessionId: string, end: () => void): () => void {
      const held = perSession.get(sessionId) ?? new Set<() => void>();
      if (held.size >= limits.maxStreamsPerSession) throw new AppError('RATE_LIMITED', liveStreamMessages.tooManyForSession);
      if (open.size >= limits.maxStreams) throw new AppError('RATE_LIMITED', liveStreamMessages.tooMany);
      held.add(end);
      perSession.set(sessionId, held);
      open.add(end);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        open.delete(end);
        held.delete(end);
        if (held.size === 0 && perSession.get(sessionId) === held) perSession.delete(sessionId);
      };
    },

    /**
     * Ends at once the streams of sessions that were just ended (a deactivated account, a password
     * reset) on this instance; other instances end theirs at their next heartbeat's session check.
     */
    endSessions(sessionIds: readonly string[]): void {
      for (const sessionId of sessionIds) for (const end of [...(perSession.get(sessionId) ?? [])]) end();
    },

    get openCount(): number {
      return open.size;
    },

    endAll(): void {
      for (const end of [...open]) end();
    },
  };
}

export type LiveStreamRegistry = ReturnType<typeof createLiveStreamRegistry>;
