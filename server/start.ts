import type { FastifyInstance } from 'fastify';
import { ConfigError, type AppConfig } from './config.ts';
import { AppError } from './errors.ts';
import { buildApp } from './app.ts';
import { isDatabaseEmpty, type DatabaseHandle } from './db/client.ts';
import { startOpeningDatabase, type DatabaseOpening } from './db/configured.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { seedDemoData } from './db/seed/demo-data.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { createStaffService } from './modules/auth/auth.service.ts';
import { markStartup } from './lib/startup-timing.ts';

export type RunningServer = { app: FastifyInstance; database: DatabaseHandle; url: string; close: () => Promise<void> };


/**
 * Opens the database (migrating it), makes sure a staff account exists, seeds demo data into an
 * empty database when configured to, and starts listening.
 */
export async function startServer(config: AppConfig, opening: DatabaseOpening = startOpeningDatabase(config)): Promise<RunningServer> {
  let app: FastifyInstance | undefined;
  let stopAfterDatabaseLoss: (() => void) | undefined;
  // The embedded database opens on its own thread while this one builds the app (decision 023-b):
  // building registers routes and services and sends no query, and the staff-account check waits
  // in the thread's queue, so it runs as soon as the database has opened. Nothing is served
  // before then: listening comes last.
  const building = opening.early?.then((early) => buildApp({ config, database: early }));
  const checkingAdmin = opening.early?.then((early) => ensureAdmin(config, early));
  building?.catch(() => undefined);
  checkingAdmin?.catch(() => undefined);
  let database: DatabaseHandle;
  try {
    database = await opening.handle;
  } catch (error) {
    await building?.then((built) => built.close()).catch(() => undefined);
    throw error;
  }
  markStartup('database open');
  opening.onLost((error) => {
    if (config.databaseUrl) {
      app?.log.warn({ err: error }, 'database connection lost; the pool reconnects');
      return;
    }
    // Every request would fail from now on: stop serving, exit with an error, and let the
    // service manager start the server again (the data directory is intact: PGlite commits durably).
    app?.log.fatal({ err: error }, 'the embedded database stopped; shutting down');
    process.exitCode = 1;
    stopAfterDatabaseLoss?.();
  });
  try {
    app = await (building ?? buildApp({ config, database }));
    const admin = await (checkingAdmin ?? ensureAdmin(config, database));
    if (admin && !admin.generatedPassword) app.log.info({ email: admin.created.email }, 'created the configured admin account');
    markStartup('admin ensured');
    if (config.seedDemo && (await isDatabaseEmpty(database.db))) {
      const counts = await seedDemoData(database.db, { timeZone: config.businessTimeZone });
      app.log.info(counts, 'seeded demo data into the empty database');
      // Each demo technician signs in to the technician app (issue 19): printed once, as the admin's is.
      const technicians = await staffService(config, database).ensureTechnicianAccounts(fallbackEmailDomain(config));
      if (technicians.length > 0) {
        process.stdout.write(
          `\n  Technician app sign-ins (${config.company.siteUrl.replace(/\/$/, '')}/tech) for the demo technicians:\n${technicians
            .map(({ created, generatedPassword }) => `    ${created.name.padEnd(18)} email: ${created.email}  password: ${generatedPassword}\n`)
            .join('')}  Keep them now; they are not shown again.\n\n`,
        );
      }
    }

    const stopMaintenance = startEmbeddedMaintenance(database, { timeZone: config.businessTimeZone, log: app.log });
    const runAgreements = () =>
      void app?.agreements.runDue().catch((error: unknown) => app?.log.warn({ err: error }, 'maintenance agreements: the hourly run failed; the next one retries'));
    const purge = setInterval(() => {
      void app?.housekeeping();
      runAgreements();
    }, 3_600_000);
    purge.unref();

    const address = await app.listen({ port: config.port, host: config.host });
    markStartup('listening');
    // The outbox's and messaging's first sweeps answer no request: they start once listening, so
    // their queries do not queue ahead of the first answers (decision 023-b).
    app.emailOutbox.start();
    app.messaging.start();
    runAgreements();
    const running = app;
    stopAfterDatabaseLoss = () => void running.close().catch(() => undefined);
    return {
      app: running,
      database,
      url: address,
      close: async () => {
        clearInterval(purge);
        stopMaintenance();
        await running.close();
        await database.close();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

function staffService(config: AppConfig, database: DatabaseHandle) {
  return createStaffService(createAuthRepository(database.db), { companyName: config.company.name });
}

function fallbackEmailDomain(config: AppConfig): string {
  return config.company.email.split('@')[1] ?? 'localhost';
}

/**
 * Creates the configured admin account, or a first one when there is no staff account at all. A
 * generated password is printed here, as soon as the account exists: the check may finish before
 * the app is built (decision 023-b), and a start that fails after it must not lose the password.
 */
async function ensureAdmin(config: AppConfig, database: DatabaseHandle) {
  const admin = await staffService(config, database)
    .ensureAdmin(config.admin, `admin@${fallbackEmailDomain(config)}`)
    .catch((error: unknown) => {
      // The configured password fails the policy (say, a common one): a configuration problem.
      if (error instanceof AppError && error.code === 'VALIDATION_FAILED') throw new ConfigError([`ADMIN_PASSWORD: ${error.message}`]);
      throw error;
    });
  if (admin?.generatedPassword) {
    // Printed once, on purpose not through the logger (which may ship to a log store).
    process.stdout.write(
      `\n  A staff account was created because none existed:\n    email:    ${admin.created.email}\n    password: ${admin.generatedPassword}\n  Keep it now; it is not shown again. Add others with npm run admin:create.\n\n`,
    );
  }
  return admin;
}
