import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { liveActions, liveChannel, liveTopics, type LiveChange } from '#shared/live-events.ts';
import type { DatabaseHandle } from '#server/db/client.ts';

/** What the database trigger publishes (migration 0010_live_change_notifications, and the topics added in 0013 and 0015); anything else on the channel is ignored. */
const liveChangeSchema = z.object({ topic: z.enum(liveTopics), action: z.enum(liveActions) });

function parseChange(payload: string): LiveChange | undefined {
  try {
    const parsed = liveChangeSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export type ChangeSubscriber = {
  onChange: (change: LiveChange) => void;
  /** The feed was deaf for a while (lost database connection): changes may have been missed. */
  onResync: () => void;
};

/**
 * The one LISTEN of this server instance, fanned out in-process to every subscriber (the
 * live-update streams). Changes come from the database on commit, so a change made through any
 * instance on the same database reaches the subscribers of every instance.
 */
export function createChangeFeed(options: { database: Pick<DatabaseHandle, 'listen'>; log: FastifyBaseLogger }) {
  const { database, log } = options;
  const subscribers = new Set<ChangeSubscriber>();
  let stopListening: (() => Promise<void>) | undefined;
  let markListening: () => void = () => undefined;
  let listening = new Promise<void>((resolve) => (markListening = resolve));
  let isListening = false;

  const each = (deliver: (subscriber: ChangeSubscriber) => void) => {
    for (const subscriber of subscribers) {
      try {
        deliver(subscriber);
      } catch (error) {
        log.warn({ err: error }, 'a live-update subscriber failed');
      }
    }
  };

  return {
    async start(): Promise<void> {
      if (stopListening) return;
      stopListening = await database.listen(liveChannel, {
        onNotification: (payload) => {
          const change = parseChange(payload);
          if (!change) {
            log.warn({ payload }, 'ignored a malformed live change notification');
            return;
          }
          each((subscriber) => subscriber.onChange(change));
        },
        onConnected: (isReconnect) => {
          isListening = true;
          markListening();
          if (isReconnect) {
            log.info('live updates: listening again; streams are told to refetch');
            each((subscriber) => subscriber.onResync());
          }
        },
        onConnectionError: (error, retryInMs) => {
          if (isListening) listening = new Promise<void>((resolve) => (markListening = resolve));
          isListening = false;
          log.warn({ err: error, retryInMs }, 'live updates: the listening database connection failed; retrying');
        },
      });
    },

    /** Resolves once LISTEN is in place: a change committed after this reaches the subscribers. */
    whenListening(): Promise<void> {
      return listening;
    },

    subscribe(subscriber: ChangeSubscriber): () => void {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },

    get subscriberCount(): number {
      return subscribers.size;
    },

    async close(): Promise<void> {
      subscribers.clear();
      const stop = stopListening;
      stopListening = undefined;
      await stop?.();
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
