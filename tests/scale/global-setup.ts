import { startCluster, stopCluster } from './scale-cluster.ts';

/** Playwright's global setup for `npm run test:scale`: the cluster, stopped again after the tests. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  try {
    await startCluster();
  } catch (error) {
    await stopCluster();
    throw error;
  }
  return stopCluster;
}
