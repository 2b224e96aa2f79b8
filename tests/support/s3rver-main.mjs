// s3rver as a child process of tests/support/fake-s3-server.ts:
//   node --openssl-legacy-provider tests/support/s3rver-main.mjs DIRECTORY BUCKET
// s3rver 3 makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy
// provider only: without the flag a listing longer than a page answers 500. Prints {"port":N} once
// listening on 127.0.0.1 (a free port); stops on SIGTERM.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
server.run().then(
  ({ port }) => process.stdout.write(`${JSON.stringify({ port })}\n`),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
process.once('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
