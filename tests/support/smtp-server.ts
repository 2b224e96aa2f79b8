import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string };

/**
 * A real SMTP server on 127.0.0.1 for tests. `isRejecting` makes it refuse messages (a mail server
 * having a bad day).
 */
export async function startTestSmtpServer() {
  const received: ReceivedMail[] = [];
  const state = { isRejecting: false };
  // While held, a received message gets no answer until release() (a server slow to confirm DATA).
  let held: Promise<void> | undefined;
  let releaseHeld = () => undefined as void;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        if (state.isRejecting) {
          callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }));
          return;
        }
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          subject,
        };
        received.push(mail);
        if (held) void held.then(() => callback());
        else callback();
      });
    },
  });
  // A client that drops its connection (an instance killed mid-delivery) is an ordinary day for a
  // real mail server: the connection's error is kept, not thrown at the test process.
  const connectionErrors: Error[] = [];
  server.on('error', (error: Error) => connectionErrors.push(error));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connectionErrors,
    state,
    hold: () => {
      held = new Promise<void>((resolve) => (releaseHeld = resolve));
    },
    release: () => {
      held = undefined;
      releaseHeld();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
