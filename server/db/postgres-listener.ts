import pg from 'pg';

export type ListenHandlers = {
  onNotification: (payload: string) => void;
  /** Called each time LISTEN is in place; `isReconnect` after a lost connection came back. */
  onConnected?: (isReconnect: boolean) => void;
  /** The listening connection failed or was lost; another attempt follows after `retryInMs`. */
  onConnectionError?: (error: Error, retryInMs: number) => void;
};

export const listenRetryMinMs = 250;
export const listenRetryMaxMs = 30_000;

/**
 * LISTEN on PostgreSQL through one dedicated connection outside the pool (a pooled connection
 * would be handed to other queries and lose its LISTEN). A lost connection (database restart, a
 * terminated backend, a network cut) is replaced with exponential backoff, so notifications stop
 * only while the database is unreachable; the caller hears about each gap through the handlers.
 */
export function listenOnPostgres(url: string, channel: string, handlers: ListenHandlers): { stop: () => Promise<void> } {
  let current: pg.Client | undefined;
  let isStopped = false;
  let hasConnected = false;
  let failedAttempts = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const failedClients = new WeakSet<pg.Client>();

  const fail = (client: pg.Client, error: Error) => {
    if (failedClients.has(client)) return;
    failedClients.add(client);
    if (current === client) current = undefined;
    client.end().catch(() => undefined);
    if (isStopped) return;
    const retryInMs = Math.min(listenRetryMaxMs, listenRetryMinMs * 2 ** failedAttempts);
    failedAttempts += 1;
    handlers.onConnectionError?.(error, retryInMs);
    retryTimer = setTimeout(() => void connect(), retryInMs);
    retryTimer.unref();
  };

  const connect = async () => {
    if (isStopped) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => fail(client, error));
    client.on('end', () => fail(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      fail(client, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (isStopped || failedClients.has(client)) {
      if (isStopped) await client.end().catch(() => undefined);
      return;
    }
    current = client;
    failedAttempts = 0;
    const isReconnect = hasConnected;
    hasConnected = true;
    handlers.onConnected?.(isReconnect);
  };

  void connect();
  return {
    stop: async () => {
      isStopped = true;
      clearTimeout(retryTimer);
      const client = current;
      current = undefined;
      if (client) {
        failedClients.add(client);
        await client.end().catch(() => undefined);
      }
    },
  };
}
